import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStore } from '@netlify/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRetryingReset } from '../../../server/blobs.mts';
import {
  createRecord,
  listEntries,
  readRecord,
  replaceRecordIfUnchanged,
  writeRecord,
} from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

// The local Blobs store as tests and the local runtime get it: Netlify's BlobsServer behind the
// gate (server/blobs.mts) that gives it what production Blobs guarantees.

const Schema = z.object({ n: z.int() });
const WRITERS = 20;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  blobs = await startLocalBlobs();
});
afterAll(() => blobs.stop());

describe('conditional writes on the local store, as on Netlify', () => {
  it(`lets exactly one of ${WRITERS} concurrent write-once claims of a key win`, async () => {
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, n) => createRecord('jobs', 'claims/once', Schema, { n })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await readRecord('jobs', 'claims/once', Schema)).toEqual({ n: winner });
  });

  it(`lets exactly one of ${WRITERS} concurrent replacements naming the same ETag win`, async () => {
    await writeRecord('contact', 'race/a', Schema, { n: -1 });
    const [listed] = await listEntries('contact', 'race/');
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, n) =>
        replaceRecordIfUnchanged('contact', 'race/a', Schema, { n }, listed?.etag ?? ''),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await readRecord('contact', 'race/a', Schema)).toEqual({ n: results.indexOf(true) });
  });

  it('gives a new ETag to every new value, even two written in the same millisecond', async () => {
    const store = getStore({ name: 'contact', consistency: 'strong' });
    const first = await store.setJSON('race/b', { n: 1 });
    const second = await store.setJSON('race/b', { n: 2 });
    expect(second.etag).not.toBe(first.etag);
    // The first version is gone, so a write that names it must fail.
    expect(await store.setJSON('race/b', { n: 3 }, { onlyIfMatch: first.etag ?? '' })).toEqual({ modified: false });
    expect(await store.get('race/b', { type: 'json' })).toEqual({ n: 2 });
  });

  it('answers reads and lists with the same ETag the write returned', async () => {
    const store = getStore({ name: 'contact', consistency: 'strong' });
    const { etag } = await store.setJSON('same/c', { n: 7 });
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await store.getWithMetadata('same/c'))?.etag).toBe(etag);
    expect((await store.getMetadata('same/c'))?.etag).toBe(etag);
    expect((await store.list({ prefix: 'same/' })).blobs).toEqual([{ key: 'same/c', etag }]);
    // So the version read is one a conditional write can name.
    expect(await store.setJSON('same/c', { n: 8 }, { onlyIfMatch: etag ?? '' })).toMatchObject({ modified: true });
  });

  it('refuses a write-once claim of a key that exists, and a replacement of one that does not', async () => {
    const store = getStore({ name: 'contact', consistency: 'strong' });
    await store.setJSON('exists/d', { n: 1 });
    expect(await store.setJSON('exists/d', { n: 2 }, { onlyIfNew: true })).toEqual({ modified: false });
    expect(await store.setJSON('exists/none', { n: 2 }, { onlyIfMatch: '"0"' })).toEqual({ modified: false });
    expect(await store.get('exists/none')).toBeNull();
  });
});

describe('lists on the local store, as on Netlify', () => {
  // Netlify's BlobsServer stops its walk, answering 200 with what it had found so far, when a file
  // disappears under it: a deleted key (without the gate, every one of these lists missed kept
  // keys), or, more rarely, a write's temporary file renamed onto its key.
  it('lists every key of a store, and only keys, while other keys of it are written and deleted', async () => {
    const store = getStore({ name: 'location', consistency: 'strong' });
    const kept = ['kept/a', 'kept/m', 'kept/zz'];
    for (const key of kept) await store.set(key, 'x');
    for (let round = 0; round < 10; round++) {
      const gone = Array.from({ length: 5 }, (_, i) => `kept/b${round}-${i}`);
      const added = Array.from({ length: 5 }, (_, i) => `kept/c${round}-${i}`);
      await Promise.all(gone.map((key) => store.set(key, 'x')));
      const [listed] = await Promise.all([
        store.list({ prefix: 'kept/' }),
        ...gone.map((key) => store.delete(key)),
        ...added.map((key) => store.set(key, 'x')),
      ]);
      const keys = listed.blobs.map((blob) => blob.key);
      expect(keys).toEqual(expect.arrayContaining(kept));
      // Never a write's temporary file (`kept/.k7cc9voyif`).
      expect(keys.filter((key) => !/^kept\/[a-z]/.test(key))).toEqual([]);
    }
  });
});

describe('a list’s prefix on the local store, as on Netlify', () => {
  const keys = ['p/x/1', 'p/x/2/deep', 'p/xy', 'q/1'];
  beforeAll(async () => {
    const store = getStore({ name: 'prefixes', consistency: 'strong' });
    for (const key of keys) await store.set(key, key);
  });

  it.each([
    ['', keys],
    ['p/', ['p/x/1', 'p/x/2/deep', 'p/xy']],
    ['p/x', ['p/x/1', 'p/x/2/deep', 'p/xy']],
    ['p/x/', ['p/x/1', 'p/x/2/deep']],
    ['p/x/2/deep', ['p/x/2/deep']],
    ['p/y/', []],
    ['none/', []],
  ])('lists under %o exactly the keys that begin with it', async (prefix, expected) => {
    const { blobs } = await getStore({ name: 'prefixes', consistency: 'strong' }).list({ prefix });
    expect(blobs.map((blob) => blob.key).sort()).toEqual([...expected].sort());
  });
});

describe('the gate’s requests to the local server', () => {
  // A kept-alive connection the server closes just as a request goes out is reset: under load it
  // happened a few times per run and, answered 502, cost the client a 5 s retry past the deadline.
  it.each([
    [1, 200],
    [2, 200],
    [3, 'reset'],
  ])('sends a request again when its connection is reset (%i resets): %s', async (resets, outcome) => {
    let seen = 0;
    const server = http.createServer((req, res) => {
      if (++seen <= resets) req.socket.destroy();
      else res.end('value');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/site/store/key`);
    try {
      const answer = await fetchRetryingReset(url, { method: 'PUT', body: 'value' }).then(
        (response) => response.status,
        (error: Error) => {
          const { code = '' } = error.cause as NodeJS.ErrnoException;
          return ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(code) ? 'reset' : code;
        },
      );
      expect(answer).toBe(outcome);
    } finally {
      await new Promise((resolve) => server.close(resolve).closeAllConnections());
    }
  });
});
