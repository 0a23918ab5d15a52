import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStore } from '@netlify/blobs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOBS_DEADLINE_MS,
  BlobsUnavailableError,
  listKeys,
  readRecord,
  writeRecord,
} from '../../../src/platform/store.ts';
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

describe('the Blobs module during an outage', () => {
  let requests = 0;
  let hang = false;
  const server = http.createServer((_req, res) => {
    requests += 1;
    if (hang) return;
    res.writeHead(500).end('down');
  });
  const point = () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ siteID: 's', token: 't', edgeURL: url, uncachedEdgeURL: url }),
    ).toString('base64');
  };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    point();
  });
  afterEach(() => {
    requests = 0;
    hang = false;
  });
  afterAll(async () => {
    delete process.env.NETLIFY_BLOBS_CONTEXT;
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

  it(`gives up on a Blobs server that never answers after ${BLOBS_DEADLINE_MS} ms`, async () => {
    hang = true;
    const started = Date.now();
    await expect(readRecord('jobs', 'y', Record)).rejects.toThrow(/took over/);
    // Bounded by the deadline rather than by the client's retries.
    expect(Date.now() - started).toBeLessThan(BLOBS_DEADLINE_MS * 3);
  }, 20_000);
});

describe('the Blobs module on a busy machine', () => {
  // A store that answers every key at once except `slow/…`, which takes `slowMs`: one call held up
  // on a machine busy with other work, while the store goes on answering the rest.
  let slowMs = 0;
  const server = http.createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":1}');
    if (req.url?.includes('/slow/')) setTimeout(answer, slowMs);
    else answer();
  });
  let context: string | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    context = process.env.NETLIFY_BLOBS_CONTEXT;
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ siteID: 's', token: 't', edgeURL: url, uncachedEdgeURL: url }),
    ).toString('base64');
  });
  afterAll(async () => {
    if (context === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
    else process.env.NETLIFY_BLOBS_CONTEXT = context;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('waits past the deadline for a slow call while the store keeps answering others', async () => {
    slowMs = BLOBS_DEADLINE_MS + 2_000;
    const slow = readRecord('jobs', 'slow/a', Record);
    const others = setInterval(() => void readRecord('jobs', 'fast/b', Record).catch(() => {}), 500);
    try {
      await expect(slow).resolves.toEqual({ n: 1 });
    } finally {
      clearInterval(others);
    }
  }, 20_000);

  it('gives up on a slow call when nothing else comes back, and a late answer ends the cool-down', async () => {
    slowMs = BLOBS_DEADLINE_MS + 1_000;
    await expect(readRecord('jobs', 'slow/c', Record)).rejects.toThrow(/took over/);
    await expect(readRecord('jobs', 'fast/d', Record)).rejects.toThrow(/cooling down/);
    // The late answer comes at 5 s, before the cool-down's end (4 s + 5 s): then calls go through.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(readRecord('jobs', 'fast/d', Record)).resolves.toEqual({ n: 1 });
  }, 20_000);

  it('waits past the deadline for a slow call while this process is busy (a cold start, a starved machine)', async () => {
    slowMs = BLOBS_DEADLINE_MS + 1_000;
    const slow = readRecord('jobs', 'slow/e', Record);
    // Busy in short turns, as a process loading code or starved of CPU: its timers still run.
    const busyUntil = Date.now() + slowMs + 500;
    while (Date.now() < busyUntil) {
      const turn = Date.now() + 20;
      while (Date.now() < turn);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(slow).resolves.toEqual({ n: 1 });
  }, 20_000);
});

describe('the Blobs module in a process that stalled', () => {
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
      // This process does nothing past the deadline, as one starved by a busy machine.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BLOBS_DEADLINE_MS + 500);
      await expect(read).resolves.toEqual({ n: 1 });
    } finally {
      if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
      else process.env.NETLIFY_BLOBS_CONTEXT = previous;
      store.kill();
    }
  }, 20_000);
});
