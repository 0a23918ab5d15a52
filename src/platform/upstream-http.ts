import { FetchError, ofetch } from 'ofetch';
import { UpstreamError } from './errors.ts';

/**
 * One HTTP exchange with a provider, bounded in every way a provider can hold us: time to the
 * last body byte, body size, and the number of attempts. Shared by the job and photo-feed
 * clients. Messages name the provider by `label` and never carry the URL, which may hold a
 * token (the photo platform takes its token in the query string).
 */
export interface UpstreamCall {
  /** Names the provider in errors and logs, e.g. "build hook"; must not hold a secret. */
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Per attempt: from sending the request to the last byte of the body. */
  timeoutMs: number;
  /** Extra attempts after a network error, a timeout, or a status in `retryOn`. */
  retries?: number;
  /** `false`: a timed-out attempt ends the call, so that `timeoutMs` bounds the whole wait. */
  retryAfterTimeout?: boolean;
  retryOn?: readonly number[];
  retryDelayMs?: number;
  /** Bodies larger than this are refused. */
  maxBytes: number;
}

export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The provider did not finish answering in time. */
class UpstreamTimeoutError extends UpstreamError {}

/** Statuses worth one more try for an idempotent request: the provider may be back a moment later. */
export const TRANSIENT_STATUSES: readonly number[] = [500, 502, 503, 504];

/**
 * Performs the call and answers any HTTP status, so that the caller decides what a status
 * means; throws UpstreamError for a network error, a timeout or an oversized body.
 */
export async function callUpstream(call: UpstreamCall): Promise<UpstreamAnswer> {
  const attempts = 1 + (call.retries ?? 0);
  let lastError: UpstreamError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, call.retryDelayMs ?? 250));
    try {
      const answer = await attemptOnce(call);
      if (attempt < attempts && (call.retryOn ?? []).includes(answer.status)) continue;
      return answer;
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      if (error instanceof UpstreamTimeoutError && call.retryAfterTimeout === false) throw error;
      lastError = error;
    }
  }
  throw lastError ?? new UpstreamError(`${call.label}: no answer`);
}

async function attemptOnce(call: UpstreamCall): Promise<UpstreamAnswer> {
  const started = Date.now();
  let response: Response;
  try {
    response = await ofetch.raw(call.url, {
      method: call.method ?? 'GET',
      headers: call.headers ?? {},
      ...(call.body === undefined ? {} : { body: call.body }),
      responseType: 'stream',
      timeout: call.timeoutMs,
      retry: false,
      ignoreResponseError: true,
    });
  } catch (error) {
    const timedOut = error instanceof FetchError && (error.cause as Error | undefined)?.name === 'TimeoutError';
    // No `cause`: ofetch's error message spells out the URL, and with it any token.
    if (timedOut) throw new UpstreamTimeoutError(`${call.label}: no answer within ${call.timeoutMs} ms`);
    throw new UpstreamError(`${call.label}: network error`);
  }
  const remainingMs = Math.max(1, call.timeoutMs - (Date.now() - started));
  const text = await readCapped(response, call.label, call.maxBytes, remainingMs);
  return { status: response.status, headers: response.headers, text };
}

/** Reads a body as text, giving up past `maxBytes` or `timeoutMs`, so that a trickle cannot hold us. */
async function readCapped(response: Response, label: string, maxBytes: number, timeoutMs: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new UpstreamError(`${label}: body of ${declared} bytes is over the ${maxBytes} byte cap`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => {});
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new UpstreamTimeoutError(`${label}: body not complete within the time allowed`);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new UpstreamError(`${label}: body is over the ${maxBytes} byte cap`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError(`${label}: body could not be read`);
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses JSON from a provider, as an UpstreamError when it is not JSON. */
export function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(`${label}: body is not JSON`);
  }
}
