import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getStore } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { startGatedBlobs } from '../../../server/blobs.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { PARKS } from '../../../src/wait-times/parks.ts';
import type { HoursOf } from '../../../src/wait-times/recorder/record-waits.ts';
import { MCP_TOOL_NAMES } from '../../support/mcp-tools.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

// One writer (docs/consistency.md): the recorder alone writes what the service learns. A built site
// with the recorder off shares one gated Blobs store with this process, whose every write the store
// reports; the recorder runs here, in-process, when a case wants it.

const MINUTE = 60_000;
const LEARNED = /wait-times\/(history|profile|day|events)\//;

let upstream: FakeQueueTimes;
let blobs: { context: string; stop(): Promise<void> };
let directory: string;
let site: ServedSite;
let client: Client;
const writes: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'site-api-one-writer-'));
  blobs = await startGatedBlobs({
    directory,
    token: 'test-token',
    siteID: 'test',
    onRequest: ({ type, url }) => {
      if (type === 'set' || type === 'delete') writes.push(decodeURIComponent(url));
    },
  });
  process.env.NETLIFY_BLOBS_CONTEXT = blobs.context;
  upstream = await startFakeQueueTimes({ moving: true });
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  // Hours unknown (the offline default): every park may be asked, so only the one-writer rule keeps
  // a visit from learning.
  site = await startServedSite({
    env: { NETLIFY_BLOBS_CONTEXT: blobs.context, WAIT_TIMES_UPSTREAM_URL: upstream.url },
    clock: true,
  });
  client = new Client({ name: 'one-writer-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.url)));
});
afterAll(async () => {
  await client?.close();
  await site?.stop();
  await upstream?.close();
  await blobs?.stop();
  delete process.env.NETLIFY_BLOBS_CONTEXT;
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => {
  upstream.reset();
  writes.length = 0;
});

/** Every GET that shows a park, and every MCP tool that reads one, once. */
async function visitEverything(slug: string, query: string) {
  const paths = [
    `/api/wait-times?park=${slug}&v=${query}`,
    `/api/wait-times/history?park=${slug}&v=${query}`,
    `/api/parks?v=${query}`,
    `/api/accuracy?park=${slug}&v=${query}`,
    `/api/parks/${slug}/events?below=${query.length}`,
    `/api/parks/${slug}/events.atom?type=ride-down`,
    `/parks/${slug}?v=${query}`,
    '/parks/',
    '/api/recorder-status',
    '/.well-known/api-catalog',
  ];
  for (const response of await Promise.all(paths.map((url) => fetch(`${site.url}${url}`)))) {
    expect(response.status, response.url).toBe(200);
    await response.arrayBuffer();
  }
  const calls = [
    ['list_parks', {}],
    ['get_wait_times', { park: slug }],
    ['get_park_day', { park: slug }],
    ['when_to_ride', { park: slug, ride: 'a' }],
    ['forecast_accuracy', { park: slug }],
    ['recent_events', { park: slug }],
  ] as const;
  for (const [name, args] of calls) await client.callTool({ name, arguments: args });
}

describe('one writer', () => {
  it('serves the answer the recorder stored byte for byte, asking the upstream nothing on a visit', async () => {
    const allOpen: HoursOf = async () => ({ opensAt: 0, closesAt: Date.parse('2100-01-01T00:00:00Z') });
    // First in this file: the site's clock is still this process's (the next case moves it on).
    const run = await runRecordWaitsJob({ hoursOf: allOpen });
    expect(run.parks?.polled).toHaveLength(PARKS.length);
    expect(writes.filter((url) => LEARNED.test(url)).length).toBeGreaterThan(0); // the recorder learns
    const asked = upstream.count();
    const stored = await getStore({ name: 'wait-times', consistency: 'strong' }).get('answer/animal-kingdom', {
      type: 'text',
    });
    expect(stored).not.toBeNull();
    const served = await (await fetch(`${site.url}/api/wait-times?park=animal-kingdom`)).text();
    expect(served).toBe(stored);
    expect(upstream.count()).toBe(asked);
  });

  it('leaves history, profiles and days untouched across an hour of visits with the recorder off', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOL_NAMES);
    for (let step = 0; step < 12; step++) {
      await visitEverything('epcot', `hour-${step}`);
      await site.advanceClock(5 * MINUTE);
    }
    // The visits did refresh the answer (no schedule runs here), once per period at most...
    expect(upstream.count('/parks/5/queue_times.json')).toBeGreaterThanOrEqual(2);
    expect(upstream.count('/parks/5/queue_times.json')).toBeLessThanOrEqual(13);
    expect(writes.some((url) => url.endsWith('/answer/epcot'))).toBe(true);
    // ...and learned nothing.
    expect(writes.filter((url) => LEARNED.test(url))).toEqual([]);
  }, 300_000);
});
