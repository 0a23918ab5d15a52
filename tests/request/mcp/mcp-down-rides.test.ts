import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedParkHistory } from '../../../scripts/demo/seed-history.mts';
import { ridesToTakeDown, seedOutages } from '../../../scripts/demo/seed-outages.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { handleMcpRequest } from '../../../src/mcp/mcp-server.ts';
import type { RideDay } from '../../../src/wait-times/day/history-schemas.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { PARK_WITH_DAY, SEEDED_CROWD } from '../../support/browser-harness.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

/**
 * `when_to_ride` and `get_park_day` for rides down: POST /mcp in-process (handleMcpRequest, the SDK
 * client over a fetch that calls it), a real Blobs store seeded with a day, three SYNTHETIC outages
 * and a made-up reopen table (scripts/demo/seed-outages.mts: 10, 45 and 75 minutes down; the park's
 * odds, pooled odds, none), and the local replay of queue-times with those rides closed.
 */

const PARK = findPark(PARK_WITH_DAY) as Park;
const DOWN = ridesToTakeDown(PARK.slug);

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let upstream: FakeQueueTimes;
let client: Client;
/** The park's rides down today, shortest outage first, as get_park_day answers them. */
let down: RideDay[];

const text = (result: Record<string, unknown>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
const clock = (at: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: PARK.timezone, hour: '2-digit', minute: '2-digit' }).format(at);

beforeAll(async () => {
  blobs = await startLocalBlobs();
  upstream = await startFakeQueueTimes({ closed: { [PARK.queueTimesId]: DOWN } });
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  await seedParkHistory(PARK.slug, Date.now(), SEEDED_CROWD);
  expect(await seedOutages(PARK.slug, DOWN, Date.now())).toBe(true);
  client = new Client({ name: 'site-api-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
    fetch: (url, init) => handleMcpRequest(new Request(url, init), { client: 'test' }),
  });
  await client.connect(transport);
  const day = await client.callTool({ name: 'get_park_day', arguments: { park: PARK.slug } });
  expect(day.isError).toBeFalsy();
  const { rides } = day.structuredContent as { rides: RideDay[] };
  down = rides.filter((ride) => ride.down !== null).sort((a, b) => (a.down?.minutes ?? 0) - (b.down?.minutes ?? 0));
});
afterAll(async () => {
  await client?.close();
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await upstream?.close();
  await blobs?.stop();
});

const whenToRide = async (ride: string) => {
  const result = await client.callTool({ name: 'when_to_ride', arguments: { park: PARK.slug, ride } });
  expect(result.isError).toBeFalsy();
  return result;
};

describe('MCP tools for rides down', () => {
  it('get_park_day carries each ride’s down and outages, and names the rides down in its text', async () => {
    expect(down.map((ride) => ride.down?.minutes)).toEqual([10, 45, 75]);
    expect(down.map((ride) => ride.outages)).toEqual(
      down.map((ride) => [{ from: ride.down?.since, to: null, minutes: ride.down?.minutes, censored: null }]),
    );
    const result = await client.callTool({ name: 'get_park_day', arguments: { park: PARK.slug } });
    const [ten, fortyFive, seventyFive] = down.map((ride) => ride.name);
    expect(text(result)).toContain(`${ten} (10 min, about 55 % back within 30 min)`);
    expect(text(result)).toContain(`${fortyFive} (45 min, about 35 % back within 30 min)`);
    expect(text(result)).toContain(`${seventyFive} (75 min, no odds)`);
    expect(text(result)).toMatch(/\nDown now: .+; odds from recorded outages, not a promise\.\n/);
  });

  it('when_to_ride gives a ride down its odds, from the park’s outages, and no best time', async () => {
    const [ride] = down;
    if (!ride?.down) throw new Error('no ride down');
    const result = await whenToRide(ride.name);
    expect(result.structuredContent).toMatchObject({
      ride: { name: ride.name, open: false },
      bestTime: null,
      down: {
        since: ride.down.since,
        minutes: 10,
        reopenWithin: { '15': 0.35, '30': 0.55, '60': 0.7 },
        outages: 412,
        scope: 'park',
      },
      outages: ride.outages,
    });
    expect(text(result)).toContain(
      `It has been down for 10 min (since ${clock(ride.down.since)} park time). Of 412 recorded outages at this park that lasted this long, about 35 % ended within 15 more minutes, 55 % within 30 and 70 % within 60: a chance, not a promise. No best time while it is down.`,
    );
  });

  it('says when the odds are pooled, and plainly when there are none', async () => {
    const pooled = await whenToRide(down[1]?.name ?? '');
    expect(pooled.structuredContent).toMatchObject({ down: { minutes: 45, outages: 1874, scope: 'all parks' } });
    expect(text(pooled)).toContain('Of 1,874 recorded outages across all parks that lasted this long, about 20 %');
    const none = await whenToRide(down[2]?.name ?? '');
    expect(none.structuredContent).toMatchObject({ down: { minutes: 75, reopenWithin: null } });
    expect(text(none)).toContain('Too few outages are recorded to give odds of when it reopens.');
    expect(text(none)).not.toMatch(/\d+ %/);
  });

  it('when_to_ride says nothing of outages for a ride open now', async () => {
    const { rides } = (await client.callTool({ name: 'get_wait_times', arguments: { park: PARK.slug } }))
      .structuredContent as { rides: { name: string; open: boolean }[] };
    const open = rides.find((ride) => ride.open);
    if (!open) throw new Error('no ride open');
    const result = await whenToRide(open.name);
    expect(result.structuredContent).toMatchObject({ down: null, outages: [] });
    expect(text(result)).not.toContain('down for');
  });
});
