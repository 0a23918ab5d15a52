import { getStore, type Store } from '@netlify/blobs';
import type { z } from 'zod';

/**
 * The one module that talks to Netlify Blobs. Everything read back is parsed through the schema
 * it was written with, because `get(…, { type: 'json' })` is untyped and a record may predate a
 * schema change or be damaged.
 */

/** The stores the service uses, one per concern. */
export type StoreName = 'wait-times' | 'location' | 'contact' | 'jobs' | 'photo-feed' | 'rate-limits';

function store(name: StoreName): Store {
  // Strong consistency: a record written by one instance is read back by the next request
  // (https://docs.netlify.com/build/data-and-storage/netlify-blobs/#consistency).
  return getStore({ name, consistency: 'strong' });
}

/** Reads one record; `null` when it is missing or no longer matches its schema. */
export async function readRecord<S extends z.ZodType>(
  name: StoreName,
  key: string,
  schema: S,
): Promise<z.output<S> | null> {
  const value: unknown = await store(name).get(key, { type: 'json' });
  if (value === null) return null;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    console.warn(`Ignoring a damaged record ${name}/${key}`);
    return null;
  }
  return parsed.data;
}

/** Writes one record whole; a Blobs write replaces the value atomically, so readers never see half. */
export async function writeRecord<S extends z.ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
): Promise<void> {
  const checked = schema.parse(value);
  await store(name).setJSON(key, checked);
}

/**
 * Writes a record only when its key does not exist yet (a claim, or a write-once ledger entry);
 * `false` when the key was already there. Netlify makes the check-and-write atomic.
 */
export async function createRecord<S extends z.ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
): Promise<boolean> {
  const checked = schema.parse(value);
  const result = await store(name).setJSON(key, checked, { onlyIfNew: true });
  // A refused conditional write that is not a 412 comes back as "modified" with an empty ETag.
  if (result.modified && !result.etag) throw new Error(`Blobs did not confirm the write of ${name}/${key}`);
  return result.modified;
}

/** Keys under a prefix, sorted. */
export async function listKeys(name: StoreName, prefix: string): Promise<string[]> {
  const { blobs } = await store(name).list({ prefix });
  return blobs.map((blob) => blob.key).sort();
}

/** Keys under a prefix with each one's current ETag (the version a conditional write can name), sorted by key. */
export async function listEntries(name: StoreName, prefix: string): Promise<{ key: string; etag: string }[]> {
  const { blobs } = await store(name).list({ prefix });
  return blobs.map(({ key, etag }) => ({ key, etag })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Replaces a record only if it is still the version `etag` names (from `listEntries`), so that of
 * several writers racing for one record exactly one wins. Returns whether this write won.
 */
export async function replaceRecordIfUnchanged<S extends z.ZodType>(
  name: StoreName,
  key: string,
  schema: S,
  value: z.input<S>,
  etag: string,
): Promise<boolean> {
  // Without an ETag the write would silently become unconditional (the local server sends none on reads).
  if (!etag) return false;
  const checked = schema.parse(value);
  const result = await store(name).setJSON(key, checked, { onlyIfMatch: etag });
  // The client reports some failed writes as `modified: true` with an empty ETag.
  return result.modified && result.etag !== '';
}

/** Deletes records; missing keys are fine. */
export async function deleteRecords(name: StoreName, keys: readonly string[]): Promise<void> {
  const target = store(name);
  await Promise.all(keys.map((key) => target.delete(key)));
}
