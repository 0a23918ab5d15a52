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
  return getStore({ name, consistency: 'strong' });
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
