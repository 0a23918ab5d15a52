import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEntries, readRecord, replaceRecordIfUnchanged, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

const Schema = z.object({ n: z.int() });
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  blobs = await startLocalBlobs();
});
afterAll(() => blobs.stop());

describe('replacing a record only if it is unchanged', () => {
  it('wins with the ETag from listing, loses once someone else has written since', async () => {
    await writeRecord('contact', 'claim/a', Schema, { n: 1 });
    const [listed] = await listEntries('contact', 'claim/');
    expect(listed?.key).toBe('claim/a');
    // The local server's ETags come from the file's modification time, in milliseconds.
    await sleep(10);
    await writeRecord('contact', 'claim/a', Schema, { n: 2 });
    expect(await replaceRecordIfUnchanged('contact', 'claim/a', Schema, { n: 3 }, listed?.etag ?? '')).toBe(false);
    expect(await readRecord('contact', 'claim/a', Schema)).toEqual({ n: 2 });

    const [fresh] = await listEntries('contact', 'claim/');
    expect(await replaceRecordIfUnchanged('contact', 'claim/a', Schema, { n: 4 }, fresh?.etag ?? '')).toBe(true);
    expect(await readRecord('contact', 'claim/a', Schema)).toEqual({ n: 4 });
  });

  it('never writes without an ETag, which would make the write unconditional', async () => {
    await writeRecord('contact', 'claim/b', Schema, { n: 1 });
    expect(await replaceRecordIfUnchanged('contact', 'claim/b', Schema, { n: 2 }, '')).toBe(false);
    expect(await readRecord('contact', 'claim/b', Schema)).toEqual({ n: 1 });
  });

  it('does not bring back a record that was deleted', async () => {
    expect(await replaceRecordIfUnchanged('contact', 'claim/gone', Schema, { n: 1 }, '"some-etag"')).toBe(false);
    expect(await readRecord('contact', 'claim/gone', Schema)).toBeNull();
  });
});
