import { getStore } from '@netlify/blobs';
import { getConfig } from './config.ts';
import * as z from './zod-mini.ts';

// The one module that talks to Netlify Blobs. Everything read back is parsed through the schema it was
// written with: a record may predate a schema change or be damaged.

type Schema = z.core.$ZodType;

/** The stores the service uses, one per concern. */
export type StoreName = 'wait-times' | 'location' | 'contact' | 'jobs' | 'photo-feed' | 'rate-limits' | 'alerts';

/** After a failure, calls fail at once for this long instead of each waiting out the deadline. */
const BLOBS_COOLDOWN_MS = 5_000;

/** Blobs did not answer in time or failed; callers degrade or answer 503, never 500. */
export class BlobsUnavailableError extends Error {
  override name = 'BlobsUnavailableError';
}

let unavailableUntil = 0;

/**
 * Runs one Blobs call on a store under the deadline (BLOBS_DEADLINE_MS, the contract's 4 s: without
 * it the client's own retries could hold a request for half a minute) and the cool-down after a failure.
 */
async function guarded<T>(what: string, name: StoreName, call: (store: ReturnType<typeof getStore>) => Promise<T>) {
  if (Date.now() < unavailableUntil) throw new BlobsUnavailableError(`Blobs unavailable (cooling down): ${what}`);
  const started = Date.now();
  const { promise: deadline, reject } = Promise.withResolvers<never>();
  const giveUp = () => reject(new BlobsUnavailableError(`Blobs took over ${Date.now() - started} ms: ${what}`));
  // setImmediate: after a stall (this process starved of CPU), the expired timer runs before the
  // answer that came meanwhile is read; giving up in the check phase, after the poll phase has read
  // it, does not fail a call the store answered in time
  // (https://nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick). A rejection after
  // the race is settled changes nothing.
  const timer = setTimeout(() => setImmediate(giveUp), getConfig().BLOBS_DEADLINE_MS);
  // https://docs.netlify.com/build/data-and-storage/netlify-blobs/#consistency: the next request reads this write.
  // Promise.try: a store that cannot be opened (no Blobs context) fails this call, not the timer later.
  // An abandoned call that fails later is handled by the race, with nobody waiting.
  const attempt = Promise.try(() => call(getStore({ name, consistency: 'strong' })));
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

const TIME_KEY_DIGITS = 15;

/** A time as a key segment: Unix ms zero-padded to 15 digits, so keys (listed sorted) sort in time order. */
export function timeKey(at: number): string {
  return String(at).padStart(TIME_KEY_DIGITS, '0');
}

/** Whether a key segment starts with a `timeKey` (`<15 digits>` or `<15 digits>-<id>`). */
export function isTimeKeyed(segment: string): boolean {
  return /^\d{15}(-|$)/.test(segment);
}

/** The time at the start of a key segment written by `timeKey`. */
export function timeOfKey(segment: string): number {
  return Number(segment.slice(0, TIME_KEY_DIGITS));
}

/** Reads one record; `null` when it is missing or no longer matches its schema. */
export async function readRecord<S extends Schema>(name: StoreName, key: string, schema: S) {
  const text = await guarded(`read ${name}/${key}`, name, (store) => store.get(key, { type: 'text' }));
  if (text === null) return null;
  try {
    const parsed = z.safeParse(schema, JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: damaged too
  }
  console.warn(`Ignoring a damaged record ${name}/${key}`);
  return null;
}

/** Writes a checked record; whether it was written (a conditional write may lose). */
async function put<S extends Schema>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
  condition?: { onlyIfNew: true } | { onlyIfMatch: string },
) {
  const checked = z.parse(schema, value);
  const result = await guarded(`write ${name}/${key}`, name, (store) => store.setJSON(key, checked, condition));
  // A refused conditional write that is not a 412 (a 403, say) comes back as "modified" with an empty ETag.
  if (result.modified && !result.etag)
    throw new BlobsUnavailableError(`Blobs did not confirm the write of ${name}/${key}`);
  return result.modified;
}

/** Writes one record whole; a Blobs write replaces the value atomically, so readers never see half. */
export async function writeRecord<S extends Schema>(name: StoreName, key: string, schema: S, value: z.input<S>) {
  await put(name, key, schema, value);
}

/**
 * Writes a record only when its key does not exist yet (a claim, a write-once ledger entry):
 * `false` when it was already there. Netlify makes the check-and-write atomic.
 */
export async function createRecord<S extends Schema>(name: StoreName, key: string, schema: S, value: z.input<S>) {
  return put(name, key, schema, value, { onlyIfNew: true });
}

/**
 * Replaces a record only if it is still the version `etag` names (from `listEntries`), so that of
 * several writers racing for one record exactly one wins. Returns whether this write won.
 */
export async function replaceRecordIfUnchanged<S extends Schema>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
  etag: string,
) {
  // Without an ETag the write would silently become unconditional.
  return etag !== '' && put(name, key, schema, value, { onlyIfMatch: etag });
}

/**
 * Keys under a prefix, sorted, with each one's ETag (the version a conditional write can name). No key
 * of ours has a segment starting with a dot: those are the local server's files being written.
 */
export async function listEntries(name: StoreName, prefix: string): Promise<{ key: string; etag: string }[]> {
  const { blobs } = await guarded(`list ${name}/${prefix}`, name, (store) => store.list({ prefix }));
  return blobs.filter(({ key }) => !/(^|\/)\./.test(key)).sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Keys under a prefix, sorted. */
export async function listKeys(name: StoreName, prefix: string): Promise<string[]> {
  return (await listEntries(name, prefix)).map(({ key }) => key);
}

/** Deletes records; missing keys are fine. */
export async function deleteRecords(name: StoreName, keys: readonly string[]): Promise<void> {
  await guarded(`delete ${keys.length} from ${name}`, name, (store) =>
    Promise.all(keys.map((key) => store.delete(key))),
  );
}
