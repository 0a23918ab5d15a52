import { performance } from 'node:perf_hooks';
import { getStore } from '@netlify/blobs';
import * as z from './zod-mini.ts';

// The one module that talks to Netlify Blobs. Everything read back is parsed through the schema it was
// written with: a record may predate a schema change or be damaged.

type Schema = z.core.$ZodType;

/** The stores the service uses, one per concern. */
export type StoreName = 'wait-times' | 'location' | 'contact' | 'jobs' | 'photo-feed' | 'rate-limits';

/**
 * One Blobs call gets this long while the store answers nothing else and this process waits idle:
 * the client's own retries could hold a request for half a minute. While other calls come back, or
 * while this process is busy (a cold start loading code, a starved machine), a slow call says
 * nothing about the store and waits on, looking again each second, up to BLOBS_PATIENCE_MS.
 */
export const BLOBS_DEADLINE_MS = 4_000;
const BLOBS_PATIENCE_MS = 3 * BLOBS_DEADLINE_MS;
/** The share of the time this process ran rather than waited for I/O above which it counts as busy. */
const BUSY_UTILIZATION = 0.5;
/** After a failure, calls fail at once for this long instead of each waiting out the deadline. */
const BLOBS_COOLDOWN_MS = 5_000;

/** Blobs did not answer in time or failed; callers degrade or answer 503, never 500. */
export class BlobsUnavailableError extends Error {
  override name = 'BlobsUnavailableError';
}

let unavailableUntil = 0;
/** When a call last came back from the store (−∞: never). */
let answeredAt = Number.NEGATIVE_INFINITY;

/** Runs one Blobs call on a store under the deadline and the cool-down after a failure. */
async function guarded<T>(what: string, name: StoreName, call: (store: ReturnType<typeof getStore>) => Promise<T>) {
  if (Date.now() < unavailableUntil) throw new BlobsUnavailableError(`Blobs unavailable (cooling down): ${what}`);
  const started = Date.now();
  const { promise: deadline, reject } = Promise.withResolvers<never>();
  let timer: NodeJS.Timeout | undefined;
  // A decision already queued in setImmediate when the call settles must not reject after it.
  let settled = false;
  /** Event-loop utilization at the last look: how busy this process was since. */
  let since = performance.eventLoopUtilization();
  const decide = () => {
    if (settled) return;
    const now = Date.now();
    const busy = performance.eventLoopUtilization(since).utilization > BUSY_UTILIZATION;
    since = performance.eventLoopUtilization();
    if ((busy || now - answeredAt < BLOBS_DEADLINE_MS) && now - started < BLOBS_PATIENCE_MS) {
      timer = setTimeout(late, Math.min(1_000, started + BLOBS_PATIENCE_MS - now));
    } else reject(new BlobsUnavailableError(`Blobs took over ${now - started} ms: ${what}`));
  };
  // After a stall (a starved process), expired timers run before the answers that came meanwhile are
  // read: setImmediate decides after them (https://nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick).
  const late = () => setImmediate(decide);
  timer = setTimeout(late, BLOBS_DEADLINE_MS);
  // https://docs.netlify.com/build/data-and-storage/netlify-blobs/#consistency: the next request reads this write.
  // Promise.try: a store that cannot be opened (no Blobs context) fails this call, not the timer later.
  const attempt = Promise.try(() => call(getStore({ name, consistency: 'strong' })));
  // The store answered: others may wait on, and a cool-down a late answer outlived is over.
  attempt.then(
    () => {
      answeredAt = Date.now();
      if (answeredAt - started > BLOBS_DEADLINE_MS) unavailableUntil = 0;
    },
    () => {}, // an abandoned call may fail later, with nobody waiting
  );
  try {
    return await Promise.race([attempt, deadline]);
  } catch (error) {
    unavailableUntil = Date.now() + BLOBS_COOLDOWN_MS;
    if (error instanceof BlobsUnavailableError) throw error;
    throw new BlobsUnavailableError(`Blobs failed: ${what}: ${(error as Error).message}`, { cause: error });
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/** Forgets a past failure (tests start each case with Blobs available). */
export function resetBlobsCooldown(): void {
  unavailableUntil = 0;
  answeredAt = Number.NEGATIVE_INFINITY;
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
