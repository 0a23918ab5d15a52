import { UpstreamError } from './errors.ts';
import { readCappedText } from './request-body.ts';
import * as z from './zod-mini.ts';

/** One HTTP exchange with a provider, bounded in time (to the last body byte), size and attempts. */
export interface UpstreamCall {
  /** Names the provider in errors and logs (never the URL, which may hold a token). */
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
  maxBytes: number;
}

class UpstreamTimeoutError extends UpstreamError {}

/** Statuses worth one more try for an idempotent request: the provider may be back a moment later. */
export const TRANSIENT_STATUSES: readonly number[] = [500, 502, 503, 504];

/** Answers any status (the caller decides what it means); throws UpstreamError for network, time or size. */
export async function callUpstream(call: UpstreamCall): Promise<{ status: number; headers: Headers; text: string }> {
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= (call.retries ?? 0);
    try {
      const answer = await attemptOnce(call);
      if (last || !(call.retryOn ?? []).includes(answer.status)) return answer;
    } catch (error) {
      const timedOut = error instanceof UpstreamTimeoutError;
      if (last || !(error instanceof UpstreamError) || (timedOut && call.retryAfterTimeout === false)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, call.retryDelayMs ?? 250));
  }
}

/** One attempt; its signal bounds the whole exchange, body included, so a trickle cannot hold us. */
async function attemptOnce({ label, url, method = 'GET', headers = {}, body, timeoutMs, maxBytes }: UpstreamCall) {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method, headers, body: body ?? null, signal });
    const { status, headers: answered } = response;
    const tooLarge = () => new UpstreamError(`${label}: body is over the ${maxBytes} byte cap`);
    return { status, headers: answered, text: await readCappedText(response, maxBytes, tooLarge) };
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    // No `cause`: fetch's errors may spell out the URL, and with it any token.
    if (signal.aborted) throw new UpstreamTimeoutError(`${label}: no answer within ${timeoutMs} ms`);
    throw new UpstreamError(`${label}: network error`);
  }
}

/** Parses JSON from a provider, as an UpstreamError when it is not JSON. */
export function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(`${label}: body is not JSON`);
  }
}

/** A provider's error body as `schema` reads it; undefined when it is not JSON or not that shape (the status says enough). */
export function errorBodyOf<S extends z.core.$ZodType>(schema: S, text: string): z.output<S> | undefined {
  try {
    return z.safeParse(schema, JSON.parse(text)).data;
  } catch {
    return undefined;
  }
}
