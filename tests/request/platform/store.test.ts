import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStore } from '@netlify/blobs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlobsUnavailableError, listKeys, readRecord, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

const Record = z.object({ n: z.int() });

describe('the Blobs module against a real Blobs server', () => {
  let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
  beforeAll(async () => {
    blobs = await startLocalBlobs();
  });
  afterAll(() => blobs.stop());

  it('reads back what it wrote, through the schema', async () => {
    await writeRecord('jobs', 'roundtrip', Record, { n: 7 });
    await expect(readRecord('jobs', 'roundtrip', Record)).resolves.toEqual({ n: 7 });
  });

  it.each([
    ['text that is not JSON', 'not json {'],
    ['JSON of another shape', '{"n":"seven"}'],
  ])('reads a record holding %s as missing', async (_case, raw) => {
    await getStore({ name: 'jobs', consistency: 'strong' }).set('damaged', raw);
    await expect(readRecord('jobs', 'damaged', Record)).resolves.toBeNull();
  });

  it('lists no key with a segment starting with a dot (the local server’s files being written)', async () => {
    const raw = getStore({ name: 'jobs', consistency: 'strong' });
    await raw.set('list/.tmp-write', '{}');
    await raw.set('list/real', '{}');
    await expect(listKeys('jobs', 'list/')).resolves.toEqual(['list/real']);
  });
});

/**
 * Runs the enclosing describe's tests with a Blobs deadline of `ms`: the product's is 4 s, the tests'
 * own is longer (tests/support/slow-machine.ts); these check the deadline itself, quickly.
 */
function withDeadline(ms: number): void {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.BLOBS_DEADLINE_MS;
    process.env.BLOBS_DEADLINE_MS = String(ms);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.BLOBS_DEADLINE_MS;
    else process.env.BLOBS_DEADLINE_MS = saved;
  });
}

/** Points the Blobs client at `url` for the enclosing describe's tests. */
function withBlobsAt(url: () => string): void {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.NETLIFY_BLOBS_CONTEXT;
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ siteID: 's', token: 't', edgeURL: url(), uncachedEdgeURL: url() }),
    ).toString('base64');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
    else process.env.NETLIFY_BLOBS_CONTEXT = saved;
  });
}

const DEADLINE_MS = 500;
const addressOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Blobs module during an outage', () => {
  let requests = 0;
  let hang = false;
  const server = http.createServer((_req, res) => {
    requests += 1;
    if (hang) return;
    res.writeHead(500).end('down');
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  withBlobsAt(() => addressOf(server));
  withDeadline(DEADLINE_MS);
  afterEach(() => {
    requests = 0;
    hang = false;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails with BlobsUnavailableError, then fails at once without calling Blobs while cooling down', async () => {
    await expect(readRecord('jobs', 'x', Record)).rejects.toBeInstanceOf(BlobsUnavailableError);
    const made = requests;
    expect(made).toBeGreaterThan(0);
    await expect(writeRecord('jobs', 'x', Record, { n: 1 })).rejects.toBeInstanceOf(BlobsUnavailableError);
    await expect(listKeys('jobs', '')).rejects.toBeInstanceOf(BlobsUnavailableError);
    expect(requests).toBe(made);
  });

  it('gives up on a Blobs server that never answers at the deadline (BLOBS_DEADLINE_MS)', async () => {
    hang = true;
    const started = Date.now();
    const read = readRecord('jobs', 'y', Record);
    await expect(read).rejects.toBeInstanceOf(BlobsUnavailableError);
    await expect(read).rejects.toThrow(/took over/);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    // About the deadline; the bound leaves a loaded machine seconds to run the timer late.
    expect(took).toBeLessThan(DEADLINE_MS + 9_500);
  }, 20_000);
});

describe('the Blobs deadline, whatever else happens', () => {
  // A store that answers every key at once except `slow/…`, which it answers after SLOW_MS (and
  // notes when). Its timer starts after the deadline's, so the deadline always comes first.
  const SLOW_MS = 3 * DEADLINE_MS;
  let slowAnsweredAt = Number.POSITIVE_INFINITY;
  const server = http.createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":1}');
    if (req.url?.includes('/slow/'))
      setTimeout(() => {
        slowAnsweredAt = Date.now();
        answer();
      }, SLOW_MS);
    else answer();
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  withBlobsAt(() => addressOf(server));
  withDeadline(DEADLINE_MS);
  afterEach(() => {
    slowAnsweredAt = Number.POSITIVE_INFINITY;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  /** When `read` failed (it must fail as past the deadline). */
  const failureOf = (read: Promise<unknown>) =>
    read.then(
      () => Promise.reject(new Error('the slow call was waited for')),
      (error: Error) => {
        expect(error).toBeInstanceOf(BlobsUnavailableError);
        expect(error.message).toMatch(/took over/);
        return Date.now();
      },
    );

  it('gives up a slow call at the deadline while the store answers others, and cools down even once it answers', async () => {
    const others = setInterval(() => void readRecord('jobs', 'fast/b', Record).catch(() => {}), 100);
    let failedAt: number;
    try {
      failedAt = await failureOf(readRecord('jobs', 'slow/a', Record));
    } finally {
      clearInterval(others);
    }
    await expect(readRecord('jobs', 'fast/c', Record)).rejects.toThrow(/cooling down/);
    // Once the slow answer has come, the cool-down (5 s) goes on all the same.
    await pause(SLOW_MS);
    expect(failedAt).toBeLessThan(slowAnsweredAt);
    await expect(readRecord('jobs', 'fast/c', Record)).rejects.toThrow(/cooling down/);
  }, 20_000);

  it('gives up a slow call at the deadline while this process is busy (a cold start, a starved machine)', async () => {
    const failed = failureOf(readRecord('jobs', 'slow/d', Record));
    // Busy in short turns, as a process loading code or starved of CPU, until the slow answer came.
    while (slowAnsweredAt === Number.POSITIVE_INFINITY) {
      const turn = Date.now() + 20;
      while (Date.now() < turn);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await failed).toBeLessThan(slowAnsweredAt);
  }, 20_000);

  it('keeps a call the store answers within the deadline', async () => {
    await expect(readRecord('jobs', 'fast/e', Record)).resolves.toEqual({ n: 1 });
  });
});

describe('the Blobs module in a process that stalled', () => {
  withDeadline(DEADLINE_MS);

  it('reads an answer that came during a stall before it gives the call up', async () => {
    // The store in a process of its own, so that it answers while this one is stalled; it says when
    // a request came, and answers 100 ms later.
    const store = spawn(
      process.execPath,
      [
        '-e',
        `require('node:http').createServer((req, res) => { console.log('request'); setTimeout(() => res.end('{"n":1}'), 100); })
          .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = store.stdout.setEncoding('utf8');
    const nextLine = async () => String((await once(lines, 'data'))[0]).trim();
    const previous = process.env.NETLIFY_BLOBS_CONTEXT;
    try {
      const url = `http://127.0.0.1:${await nextLine()}`;
      process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
        JSON.stringify({ siteID: 's', token: 't', edgeURL: url, uncachedEdgeURL: url }),
      ).toString('base64');
      const read = readRecord('jobs', 'stalled', Record);
      expect(await nextLine()).toBe('request');
      // This process does nothing past the deadline, as one starved by a busy machine: the deadline's
      // timer and the answer are both due when it wakes.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2 * DEADLINE_MS);
      await expect(read).resolves.toEqual({ n: 1 });
    } finally {
      if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
      else process.env.NETLIFY_BLOBS_CONTEXT = previous;
      store.kill();
    }
  }, 20_000);
});
