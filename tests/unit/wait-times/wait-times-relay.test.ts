import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeQueueTimes, recordedPayload, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { listKeys, resetBlobsCooldown, timeKey, writeRecord } from '../../../src/platform/store.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import { HistorySampleSchema } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

// GET /api/wait-times's core in-process: the relay, the queue-times client and the history, against
// the fake upstream (recorded payloads, faults) and a real Blobs server, each case with a fresh store
// and a cold memory. The route (caching, HEAD, 304, errors as HTTP) is tests/request/wait-times/.
// (The relay's rules alone, on a fake clock and fake upstream: tests/unit/platform/relay-cache.test.ts.)

const MINUTE = 60_000;
const EPCOT = '/parks/5/queue_times.json';

let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let clockOffset = 0;
const park = findPark('epcot') as Park;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
});
afterAll(async () => {
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  blobs = await startLocalBlobs();
  resetBlobsCooldown();
  resetWaitTimesMemory();
  clockOffset = 0;
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await blobs.stop();
});

/** Moves the clock the core reads (Date.now) forward. */
const advanceClock = (ms: number) => {
  clockOffset += ms;
};
const waits = async () => (await getWaitTimes(park)).body;
const epcotRequests = () => upstream.count(EPCOT);

interface RawRide {
  id: number;
  name: string;
  wait_time: number;
  is_open: boolean;
}
type RawPark = { lands: { rides: RawRide[] }[]; rides: RawRide[] };
const rawRides = (payload: unknown) => {
  const recorded = payload as RawPark;
  return [...recorded.lands.flatMap((land) => land.rides), ...recorded.rides];
};

describe('wait times of a park', { timeout: 30_000 }, () => {
  it('answer every ride of the park once, sorted by name, in exactly the documented shape', async () => {
    const before = Date.now();
    const body = await waits();
    expect(Object.keys(body).sort()).toEqual(['rides', 'source', 'updatedAt']);
    expect(WaitTimesSchema.parse(body)).toEqual(body);
    expect(body.source).toBe('queue-times.com');
    expect(body.updatedAt).toBeGreaterThanOrEqual(before);
    const names = body.rides.map((ride) => ride.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const raw = rawRides(recordedPayload(5));
    expect(body.rides).toHaveLength(new Set(raw.map((ride) => ride.id)).size);
    // Each ride keeps the provider's id: what POST /api/alerts takes.
    expect(new Set(body.rides.map((ride) => ride.id))).toEqual(new Set(raw.map((ride) => ride.id)));
    for (const ride of body.rides) {
      expect(Object.keys(ride).sort()).toEqual(['forecast', 'id', 'name', 'open', 'trend', 'wait']);
      expect(ride.trend).toBe('flat'); // no earlier sample yet
      if (!ride.open) expect(ride.forecast).toBeNull();
    }
  });

  it('cause exactly one upstream request for 100 concurrent cold requests', async () => {
    upstream.delayMs = 300;
    const bodies = await Promise.all(Array.from({ length: 100 }, waits));
    expect(new Set(bodies.map((body) => body.updatedAt)).size).toBe(1);
    expect(epcotRequests()).toBe(1);
  });

  it('answer the last data at once, without queueing, while a slow refresh is under way', async () => {
    const first = await waits();
    advanceClock(8 * MINUTE);
    upstream.delayMs = 3_000;
    // The first request past a period plus the recorder's margin starts the refresh and waits for it.
    const refresh = waits();
    await vi.waitFor(() => expect(epcotRequests()).toBe(2));
    const during = await waits();
    expect(during.updatedAt).toBe(first.updatedAt);
    // Answered before the upstream answered the refresh: nobody queued behind it.
    expect(upstream.answered(EPCOT)).toBe(1);
    expect((await refresh).updatedAt).toBeGreaterThan(first.updatedAt);
  });

  it.each([
    'error-500',
    'html-error',
    'invalid-json',
    'wrong-shape',
    'truncated',
    'oversized',
    'reset',
    'not-found',
  ] as const)('answer the last good data with its honest updatedAt when the upstream fails (%s)', async (mode) => {
    const first = await waits();
    upstream.mode = mode;
    advanceClock(3 * 60 * MINUTE);
    const { body, fallback } = await getWaitTimes(park);
    expect(fallback).toBe(true);
    expect(body.updatedAt).toBe(first.updatedAt);
    expect(body.rides).toEqual(first.rides);
    expect(epcotRequests()).toBeGreaterThan(1);
  });

  it('fail with 502 and Retry-After when the upstream never answered, then serve data once it recovers', async () => {
    upstream.mode = 'error-500';
    const failure = { status: 502, message: 'upstream unavailable', headers: { 'Retry-After': expect.any(String) } };
    await expect(waits()).rejects.toMatchObject(failure);
    // One retry on 5xx, then the upstream is left alone during the back-off.
    expect(epcotRequests()).toBe(2);
    await expect(waits()).rejects.toMatchObject(failure);
    expect(epcotRequests()).toBe(2);

    // The period's one upstream request is spent: the next period asks again.
    upstream.mode = 'ok';
    advanceClock(5 * MINUTE);
    expect((await waits()).rides.length).toBeGreaterThan(0);
  });

  it('give up on an upstream that never answers after 8 s, with nothing to fall back on', async () => {
    upstream.mode = 'hang';
    await expect(waits()).rejects.toMatchObject({ status: 502, message: 'upstream unavailable' });
    // A timed-out attempt is not tried again: 8 s is the whole budget.
    expect(epcotRequests()).toBe(1);
  });

  it.each(['oversized', 'invalid-json', 'wrong-shape', 'html-error'] as const)(
    'fail with 502, never a bug, when the first upstream answer is unusable (%s)',
    async (mode) => {
      upstream.mode = mode;
      await expect(waits()).rejects.toMatchObject({ status: 502, message: 'upstream unavailable' });
    },
  );

  it('do not fall back on data older than 24 hours when the upstream fails', async () => {
    await waits();
    upstream.mode = 'error-500';
    advanceClock(25 * 60 * MINUTE);
    await expect(waits()).rejects.toMatchObject({ status: 502 });
  });

  it('keep the last good data across a restart (memory lost, Blobs kept)', async () => {
    const first = await waits();
    resetWaitTimesMemory();
    upstream.mode = 'error-500';
    advanceClock(10 * MINUTE);
    const { body, fallback } = await getWaitTimes(park);
    expect([body.updatedAt, fallback]).toEqual([first.updatedAt, true]);
  });

  it('compute the trend, where no recorder runs, against the recorded sample about 30 minutes older', async () => {
    const recorded = recordedPayload(5) as RawPark;
    const open = rawRides(recorded).filter((ride) => ride.is_open && ride.wait_time >= 20);
    const [rising, falling, steady] = open;
    if (!rising || !falling || !steady) throw new Error('fixture needs three open rides with waits');
    // What the recorder kept 30 minutes ago: every ride's wait as recorded.
    const earlier = { at: Date.now() - 30 * MINUTE, waits: Object.fromEntries(open.map((r) => [r.id, r.wait_time])) };
    await writeRecord('wait-times', `history/epcot/${timeKey(earlier.at)}`, HistorySampleSchema, earlier);

    const change = (ride: RawRide): RawRide => {
      if (ride.id === rising.id) return { ...ride, wait_time: ride.wait_time + 10 };
      if (ride.id === falling.id) return { ...ride, wait_time: ride.wait_time - 10 };
      if (ride.id === steady.id) return { ...ride, wait_time: ride.wait_time + 4 };
      return ride;
    };
    upstream.payloads[5] = {
      lands: recorded.lands.map((land) => ({ ...land, rides: land.rides.map(change) })),
      rides: recorded.rides.map(change),
    };
    const body = await waits();
    const trendOf = (name: string) => body.rides.find((ride) => ride.name === name.trim())?.trend;
    expect(trendOf(rising.name)).toBe('up');
    expect(trendOf(falling.name)).toBe('down');
    expect(trendOf(steady.name)).toBe('flat');
  });

  it('answer a closed park with an empty ride list', async () => {
    upstream.payloads[5] = { lands: [], rides: [] };
    expect((await waits()).rides).toEqual([]);
  });
});

describe('wait times around the relay', { timeout: 30_000 }, () => {
  it('store only the answer on a visitor’s refresh: no history sample, profile or day is written', async () => {
    upstream.delayMs = 100;
    const answers = await Promise.all(Array.from({ length: 5 }, () => getWaitTimes(park)));
    expect(epcotRequests()).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.updatedAt)).size).toBe(1);
    expect(await listKeys('wait-times', '')).toEqual([
      'answer/epcot',
      `claims/epcot/${timeKey(Math.floor(Date.now() / (5 * MINUTE)) * 5 * MINUTE)}`,
    ]);
  });

  it('serve another instance’s stored answer as it is, without asking the upstream', async () => {
    const studios = findPark('hollywood-studios') as Park;
    const stored = {
      updatedAt: Date.now() - MINUTE,
      source: 'queue-times.com' as const,
      rides: [{ id: 1, name: 'Coaster', wait: 45, open: true, trend: 'up' as const, forecast: 50 }],
    };
    await writeRecord('wait-times', 'answer/hollywood-studios', WaitTimesSchema, stored);
    const { body } = await getWaitTimes(studios);
    expect(upstream.count('/parks/7/queue_times.json')).toBe(0);
    expect(JSON.stringify(body)).toBe(JSON.stringify(stored));
  });

  it('answer the live waits with flat trends and persistence forecasts when Blobs is unavailable', async () => {
    // Blobs at a closed port: the request is not held up, and trend and forecast fall back to "no history".
    const closed = { siteID: 's', token: 't', edgeURL: 'http://127.0.0.1:9', uncachedEdgeURL: 'http://127.0.0.1:9' };
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(JSON.stringify(closed)).toString('base64');
    const result = await getWaitTimes(park);
    expect(result.fallback).toBe(false);
    expect(result.body.rides.length).toBeGreaterThan(0);
    for (const ride of result.body.rides) {
      expect(ride.trend).toBe('flat');
      expect(ride.forecast).toBe(ride.open ? Math.round(ride.wait / 5) * 5 : null);
    }
  });
});
