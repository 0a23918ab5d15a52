import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, recordedPayload, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { eventually, type ServedSite, startServedSite } from '../../support/served-site.ts';

const MINUTE = 60_000;
const EPCOT = '/parks/5/queue_times.json';

let upstream: FakeQueueTimes;
let site: ServedSite;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
});
afterAll(() => upstream.close());

beforeEach(async () => {
  upstream.reset();
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, clock: true });
});
afterEach(async () => {
  await site.stop();
});

const get = (path: string, init?: RequestInit) => fetch(`${site.url}${path}`, init);
const epcotRequests = () => upstream.count(EPCOT);

interface RawRide {
  id: number;
  name: string;
  wait_time: number;
  is_open: boolean;
}
type RawPark = { lands: { rides: RawRide[] }[]; rides: RawRide[] };
const rawRides = (payload: unknown) => {
  const park = payload as RawPark;
  return [...park.lands.flatMap((land) => land.rides), ...park.rides];
};

describe('GET /api/wait-times', () => {
  it('answers every ride of the park once, sorted by name, in exactly the documented shape', async () => {
    const before = Date.now();
    const response = await get('/api/wait-times?park=epcot');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['rides', 'source', 'updatedAt']);
    expect(WaitTimesSchema.parse(body)).toEqual(body);
    expect(body.source).toBe('queue-times.com');
    expect(body.updatedAt).toBeGreaterThanOrEqual(before - 1000);
    const names = body.rides.map((ride: { name: string }) => ride.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const raw = rawRides(recordedPayload(5));
    expect(body.rides).toHaveLength(new Set(raw.map((ride) => ride.id)).size);
    for (const ride of body.rides) {
      expect(Object.keys(ride).sort()).toEqual(['forecast', 'name', 'open', 'trend', 'wait']);
      expect(ride.trend).toBe('flat'); // no earlier sample yet
      if (!ride.open) expect(ride.forecast).toBeNull();
    }
  });

  it('causes exactly one upstream request for 100 concurrent cold requests', async () => {
    upstream.delayMs = 300;
    const responses = await Promise.all(Array.from({ length: 100 }, () => get('/api/wait-times?park=epcot')));
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.updatedAt)).size).toBe(1);
    expect(epcotRequests()).toBe(1);
  });

  it('causes no upstream request for a repeat within 5 minutes, and refreshes in the background once the data is older than a period plus the recorder’s margin', async () => {
    const first = await (await get('/api/wait-times?park=epcot')).json();
    await site.advanceClock(4 * MINUTE);
    const second = await (await get('/api/wait-times?park=epcot')).json();
    expect(second.updatedAt).toBe(first.updatedAt);
    // A different query string misses the route cache but still reuses the fresh data.
    await get('/api/wait-times?park=epcot&utm_source=x&other=1');
    expect(epcotRequests()).toBe(1);

    // 6 minutes: the recorder's next write is due (none runs here), the stored data is still answered.
    await site.advanceClock(2 * MINUTE);
    await get('/api/wait-times?park=epcot&late=1');
    expect(epcotRequests()).toBe(1);
    await site.advanceClock(2 * MINUTE);
    upstream.delayMs = 500;
    const stale = await get('/api/wait-times?park=epcot');
    // Answered at once with the last data while the refresh runs.
    expect((await stale.json()).updatedAt).toBe(first.updatedAt);
    await eventually(() => epcotRequests() === 2);
    upstream.delayMs = 0;
    await eventually(async () => (await (await get('/api/wait-times?park=epcot')).json()).updatedAt > first.updatedAt);
    expect(epcotRequests()).toBe(2);
  });

  it('answers the last data at once, without queueing, while a slow refresh is under way', async () => {
    const first = await (await get('/api/wait-times?park=epcot')).json();
    await site.advanceClock(8 * MINUTE);
    upstream.delayMs = 3_000;
    // The stale route-cache hit starts the refresh in the background.
    await get('/api/wait-times?park=epcot');
    await eventually(() => epcotRequests() === 2);
    // A request that misses the route cache reaches the core while the refresh is still running.
    const during = await (await get('/api/wait-times?park=epcot&during=1')).json();
    expect(during.updatedAt).toBe(first.updatedAt);
    // Answered before the upstream answered the refresh: nobody queued behind it.
    expect(upstream.answered(EPCOT)).toBe(1);
    expect(epcotRequests()).toBe(2);
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
  ] as const)('answers the last good data with its honest updatedAt when the upstream fails (%s)', async (mode) => {
    const first = await (await get('/api/wait-times?park=epcot')).json();
    upstream.mode = mode;
    await site.advanceClock(3 * 60 * MINUTE);
    const response = await get('/api/wait-times?park=epcot');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.updatedAt).toBe(first.updatedAt);
    expect(body.rides).toEqual(first.rides);
    expect(epcotRequests()).toBeGreaterThan(1);
  });

  it('answers 502 with Retry-After when the upstream never answered, then serves data once it recovers', async () => {
    upstream.mode = 'error-500';
    const response = await get('/api/wait-times?park=epcot');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'upstream unavailable' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
    // One retry on 5xx, then the upstream is left alone during the back-off.
    expect(epcotRequests()).toBe(2);
    const again = await get('/api/wait-times?park=epcot');
    expect(again.status).toBe(502);
    expect(epcotRequests()).toBe(2);

    // The period's one upstream request is spent: the next period asks again.
    upstream.mode = 'ok';
    await site.advanceClock(5 * MINUTE);
    expect((await get('/api/wait-times?park=epcot')).status).toBe(200);
  });

  it('gives up on an upstream that never answers after 8 s and answers 502 with nothing to fall back on', async () => {
    upstream.mode = 'hang';
    const response = await get('/api/wait-times?park=epcot');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'upstream unavailable' });
    // A timed-out attempt is not tried again: 8 s is the whole budget.
    expect(epcotRequests()).toBe(1);
  }, 30_000);

  it.each(['oversized', 'invalid-json', 'wrong-shape', 'html-error'] as const)(
    'answers 502, never 500, when the first upstream answer is unusable (%s)',
    async (mode) => {
      upstream.mode = mode;
      const response = await get('/api/wait-times?park=epcot');
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: 'upstream unavailable' });
    },
  );

  it('does not serve data older than 24 hours when the upstream fails', async () => {
    await get('/api/wait-times?park=epcot');
    upstream.mode = 'error-500';
    await site.advanceClock(25 * 60 * MINUTE);
    expect((await get('/api/wait-times?park=epcot')).status).toBe(502);
  });

  it('keeps the last good data across a restart of the server (Blobs on disk)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-restart-'));
    try {
      await site.stop();
      site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, dataDir });
      const first = await (await get('/api/wait-times?park=epcot')).json();
      await site.stop();
      upstream.mode = 'error-500';
      site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, dataDir });
      const response = await get('/api/wait-times?park=epcot');
      expect(response.status).toBe(200);
      expect((await response.json()).updatedAt).toBe(first.updatedAt);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('computes trend against the sample about 30 minutes older', async () => {
    const recorded = recordedPayload(5) as RawPark;
    const open = rawRides(recorded).filter((ride) => ride.is_open && ride.wait_time >= 20);
    const [rising, falling, steady] = open;
    if (!rising || !falling || !steady) throw new Error('fixture needs three open rides with waits');
    await get('/api/wait-times?park=epcot');

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
    await site.advanceClock(30 * MINUTE);
    const body = await (await get('/api/wait-times?park=epcot')).json();
    const trendOf = (name: string) => body.rides.find((ride: { name: string }) => ride.name === name.trim())?.trend;
    expect(trendOf(rising.name)).toBe('up');
    expect(trendOf(falling.name)).toBe('down');
    expect(trendOf(steady.name)).toBe('flat');
  });

  it('answers a closed park with an empty ride list', async () => {
    upstream.payloads[5] = { lands: [], rides: [] };
    const response = await get('/api/wait-times?park=epcot');
    expect(response.status).toBe(200);
    expect((await response.json()).rides).toEqual([]);
  });

  it.each([
    ['/api/wait-times', 400, { error: 'missing park' }],
    ['/api/wait-times?park=', 400, { error: 'missing park' }],
    ['/api/wait-times?park=atlantis', 404, { error: 'unknown park' }],
    ['/api/wait-times?park=EPCOT', 404, { error: 'unknown park' }],
    ['/api/wait-times?park=%3Cscript%3E', 404, { error: 'unknown park' }],
  ])('answers %s with %i and a JSON error', async (path, status, body) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(upstream.count()).toBe(0);
  });

  it('answers a repeat from the route cache with the same bytes and headers Astro rendered', async () => {
    const rendered = await get('/api/wait-times?park=epcot');
    const cached = await get('/api/wait-times?park=epcot');
    expect(rendered.headers.get('x-astro-cache')).toBe('MISS');
    expect(cached.headers.get('x-astro-cache')).toBe('HIT');
    expect(await cached.text()).toBe(await rendered.text());
    const comparable = (response: Response) =>
      [...response.headers].filter(([name]) => !['date', 'x-astro-cache', 'keep-alive', 'connection'].includes(name));
    expect(comparable(cached)).toEqual(comparable(rendered));
  });

  it('answers a URL with tracking or other parameters from the cache entry of its park', async () => {
    const rendered = await get('/api/wait-times?park=epcot');
    expect(rendered.headers.get('x-astro-cache')).toBe('MISS');
    for (const target of ['/api/wait-times?park=epcot&utm_source=x', '/api/wait-times?campaign=spring&park=epcot']) {
      const tracked = await get(target);
      expect([target, tracked.headers.get('x-astro-cache')]).toEqual([target, 'HIT']);
      expect(await tracked.text()).toBe(await rendered.clone().text());
    }
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const got = await get('/api/wait-times?park=epcot');
    const head = await get('/api/wait-times?park=epcot', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin']) {
      expect(head.headers.get(name)).toBe(got.headers.get(name));
    }
  });

  it('answers If-None-Match with 304 while the data is unchanged', async () => {
    const first = await get('/api/wait-times?park=epcot');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await get('/api/wait-times?park=epcot', { headers: { 'If-None-Match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    const other = await get('/api/wait-times?park=epcot', { headers: { 'If-None-Match': '"something-else"' } });
    expect(other.status).toBe(200);
  });

  it('carries CORS, nosniff and browser revalidation headers', async () => {
    const response = await get('/api/wait-times?park=epcot');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const preflight = await get('/api/wait-times?park=epcot', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and an Allow header', async (method) => {
    const response = await get('/api/wait-times?park=epcot', { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')?.split(/,\s*/)).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(await response.json()).toEqual({ error: 'method not allowed' });
  });
});
