import http from 'node:http';
import https from 'node:https';
import { getStore, type Store } from '@netlify/blobs';
import * as z from './zod-mini.ts';

/**
 * The one module that talks to Netlify Blobs. Everything read back is parsed through the schema
 * it was written with, because `get(…, { type: 'json' })` is untyped and a record may predate a
 * schema change or be damaged.
 */

/** The stores the service uses, one per concern. */
export type StoreName = 'wait-times' | 'location' | 'contact' | 'jobs' | 'photo-feed' | 'rate-limits';

/**
 * One Blobs operation gets this long. The client retries failed calls five times with 5-second
 * pauses, so during an outage one call could hold a request for half a minute.
 */
export const BLOBS_DEADLINE_MS = 4_000;
/** After a failure, calls fail at once for this long instead of each waiting out the deadline. */
export const BLOBS_COOLDOWN_MS = 5_000;

/** Blobs did not answer in time or failed; callers degrade or answer 503, never 500. */
export class BlobsUnavailableError extends Error {
  override name = 'BlobsUnavailableError';
}

let unavailableUntil = 0;

/** Runs one Blobs call under the deadline and the cool-down after a failure. */
async function guarded<T>(what: string, call: () => Promise<T>): Promise<T> {
  if (Date.now() < unavailableUntil) throw new BlobsUnavailableError(`Blobs unavailable (cooling down): ${what}`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BlobsUnavailableError(`Blobs took over ${BLOBS_DEADLINE_MS} ms: ${what}`)),
      BLOBS_DEADLINE_MS,
    );
  });
  const attempt = call();
  // The abandoned call may still settle later; nobody is waiting for it then.
  attempt.catch(() => {});
  try {
    return await Promise.race([attempt, deadline]);
  } catch (error) {
    unavailableUntil = Date.now() + BLOBS_COOLDOWN_MS;
    if (error instanceof BlobsUnavailableError) throw error;
    throw new BlobsUnavailableError(`Blobs failed: ${what}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Forgets a past failure (tests start each case with Blobs available). */
export function resetBlobsCooldown(): void {
  unavailableUntil = 0;
}

function store(name: StoreName): Store {
  // Strong consistency: a record written by one instance is read back by the next request
  // (https://docs.netlify.com/build/data-and-storage/netlify-blobs/#consistency).
  return getStore({ name, consistency: 'strong', fetch: nodeHttpFetch });
}

const TIME_KEY_DIGITS = 15;

/**
 * A time as a key segment: Unix ms zero-padded to 15 digits, so that keys sort in time order
 * (listings come back sorted by key).
 */
export function timeKey(at: number): string {
  return String(at).padStart(TIME_KEY_DIGITS, '0');
}

const TIME_KEYED = new RegExp(`^\\d{${TIME_KEY_DIGITS}}(-|$)`);

/** Whether a key segment starts with a `timeKey` (`<15 digits>` or `<15 digits>-<id>`). */
export function isTimeKeyed(segment: string): boolean {
  return TIME_KEYED.test(segment);
}

/** The time at the start of a key segment written by `timeKey`. */
export function timeOfKey(segment: string): number {
  return Number(segment.slice(0, TIME_KEY_DIGITS));
}

// The local Blobs server lists a write's temporary file (`pin/.k7cc9voyif`) as a key while it is
// being written; none of our keys has a segment starting with a dot.
const isOwnKey = (key: string) => !key.split('/').some((segment) => segment.startsWith('.'));

/** Reads one record; `null` when it is missing or no longer matches its schema. */
export async function readRecord<S extends z.core.$ZodType>(
  name: StoreName,
  key: string,
  schema: S,
): Promise<z.output<S> | null> {
  const text = await guarded(`read ${name}/${key}`, () => store(name).get(key, { type: 'text' }));
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    console.warn(`Ignoring a damaged record ${name}/${key} (not JSON)`);
    return null;
  }
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) {
    console.warn(`Ignoring a damaged record ${name}/${key}`);
    return null;
  }
  return parsed.data;
}

/** Writes one record whole; a Blobs write replaces the value atomically, so readers never see half. */
export async function writeRecord<S extends z.core.$ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
): Promise<void> {
  const checked = z.parse(schema, value);
  const result = await guarded(`write ${name}/${key}`, () => store(name).setJSON(key, checked));
  // The client reports some refused writes as done with an empty ETag (a 403, for one).
  if (result.etag === '') throw new BlobsUnavailableError(`Blobs did not confirm the write of ${name}/${key}`);
}

/**
 * Writes a record only when its key does not exist yet (a claim, or a write-once ledger entry);
 * `false` when the key was already there. Netlify makes the check-and-write atomic.
 */
export async function createRecord<S extends z.core.$ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
): Promise<boolean> {
  const checked = z.parse(schema, value);
  const result = await guarded(`create ${name}/${key}`, () => store(name).setJSON(key, checked, { onlyIfNew: true }));
  // A refused conditional write that is not a 412 comes back as "modified" with an empty ETag.
  if (result.modified && !result.etag) throw new Error(`Blobs did not confirm the write of ${name}/${key}`);
  return result.modified;
}

/** Keys under a prefix, sorted. */
export async function listKeys(name: StoreName, prefix: string): Promise<string[]> {
  const { blobs } = await guarded(`list ${name}/${prefix}`, () => store(name).list({ prefix }));
  return blobs
    .map((blob) => blob.key)
    .filter(isOwnKey)
    .sort();
}

/** Keys under a prefix with each one's current ETag (the version a conditional write can name), sorted by key. */
export async function listEntries(name: StoreName, prefix: string): Promise<{ key: string; etag: string }[]> {
  const { blobs } = await guarded(`list ${name}/${prefix}`, () => store(name).list({ prefix }));
  return blobs
    .filter(({ key }) => isOwnKey(key))
    .map(({ key, etag }) => ({ key, etag }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Replaces a record only if it is still the version `etag` names (from `listEntries`), so that of
 * several writers racing for one record exactly one wins. Returns whether this write won.
 */
export async function replaceRecordIfUnchanged<S extends z.core.$ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
  etag: string,
): Promise<boolean> {
  // Without an ETag the write would silently become unconditional (the local server sends none on reads).
  if (!etag) return false;
  const checked = z.parse(schema, value);
  const result = await guarded(`replace ${name}/${key}`, () =>
    store(name).setJSON(key, checked, { onlyIfMatch: etag }),
  );
  // The client reports some failed writes as `modified: true` with an empty ETag.
  return result.modified && result.etag !== '';
}

/** Deletes records; missing keys are fine. */
export async function deleteRecords(name: StoreName, keys: readonly string[]): Promise<void> {
  const target = store(name);
  await guarded(`delete ${keys.length} from ${name}`, () => Promise.all(keys.map((key) => target.delete(key))));
}

/**
 * Connections are kept for the next call, as fetch keeps them, and closed after this long idle (or
 * a second before the server's `Keep-Alive: timeout`, when it announces a shorter one), as fetch
 * closes them: a connection the server has already dropped fails the call that reuses it. An
 * agent without `timeout` keeps idle connections for ever and ignores the server's hint
 * (https://nodejs.org/api/http.html#new-agentoptions).
 */
const IDLE_CONNECTION_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
} as const;

/** Statuses whose responses have no body, and that `new Response()` refuses one for. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

type SimpleBody = string | Uint8Array | ArrayBuffer | undefined | null;

const isSimpleBody = (body: unknown): body is SimpleBody =>
  body == null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;

/**
 * The `fetch` the Blobs client is given above (`getStore({ fetch })`, a documented option): the same
 * exchange over `node:http`/`node:https` instead of Node's built-in fetch. A cold instance's first
 * requests to Blobs are what its first answer waits for, and the built-in fetch (undici) spends
 * about 15 ms of CPU getting going on its first request and more on a first burst in parallel;
 * `node:http` parses in C++ and starts in a few (docs/netlify.md, "Function size and cold start").
 *
 * It covers what the Blobs client sends: a URL, a method, headers, and a string or bytes as the
 * body, and answers with the whole body read (Blobs records are small JSON). Anything else (a
 * `Request`, a streamed body, an abort signal) goes to the built-in fetch unchanged. Unlike
 * `fetch`, it follows no redirect: Blobs answers none, so a 3xx is handed back as it came.
 */
export const nodeHttpFetch: typeof fetch = (input, init = {}) => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const { body } = init;
  if (href === undefined || !isSimpleBody(body) || init.signal) return fetch(input, init);
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const [client, agent] = url.protocol === 'https:' ? [https, agents['https:']] : [http, agents['http:']];
  const send = (retried: boolean) =>
    new Promise<Response>((resolve, reject) => {
      const request = client.request(url, { method, headers, agent }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const status = incoming.statusCode ?? 0;
          const answerHeaders = new Headers();
          const raw = incoming.rawHeaders;
          for (let i = 0; i + 1 < raw.length; i += 2) answerHeaders.append(raw[i] ?? '', raw[i + 1] ?? '');
          const withoutBody = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
          try {
            resolve(
              new Response(withoutBody ? null : Buffer.concat(chunks), {
                status,
                statusText: incoming.statusMessage ?? '',
                headers: answerHeaders,
              }),
            );
          } catch (error) {
            reject(error); // a status `Response` cannot carry (1xx): a broken server, not ours
          }
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept connection the server closed just as it was reused: sent once more on a new one,
        // as Node advises (https://nodejs.org/api/http.html#requestreusedsocket), rather than left
        // to the Blobs client's retry, which waits 5 s first.
        if (!retried && request.reusedSocket && error.code === 'ECONNRESET') resolve(send(true));
        else reject(error);
      });
      request.end(body instanceof ArrayBuffer ? Buffer.from(body) : (body ?? undefined));
    });
  return send(false);
};
