import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { eventually, type ServedSite, startServedSite } from '../../support/served-site.ts';

// GET /api/wait-times end to end over the built site: the route (its cache, HEAD, 304, errors as
// HTTP) and a few cases of the relay behind it. The relay's cases in full run in-process in
// tests/unit/wait-times/wait-times-relay.test.ts. One site for the file: each case that depends
// on what the route cache holds asks for a park no other case asks for.

const MINUTE = 60_000;

let upstream: FakeQueueTimes;
let site: ServedSite;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url }, clock: true });
});
afterAll(async () => {
  await site?.stop();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const get = (path: string, init?: RequestInit) => fetch(`${site.url}${path}`, init);

describe('GET /api/wait-times end to end', () => {
  it('answers a park in exactly the documented shape, fetched once for concurrent cold requests', async () => {
    upstream.delayMs = 300;
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/api/wait-times?park=animal-kingdom')));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(responses[0]?.headers.get('content-type')).toMatch(/^application\/json/);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(WaitTimesSchema.parse(bodies[0])).toEqual(bodies[0]);
    expect(new Set(bodies.map((b) => b.updatedAt)).size).toBe(1);
    expect(upstream.count('/parks/8/queue_times.json')).toBe(1);
  });

  it('causes no upstream request for a repeat within 5 minutes, and refreshes in the background once the data is older than a period plus the recorder’s margin', async () => {
    const park = '/api/wait-times?park=epcot';
    const requests = () => upstream.count('/parks/5/queue_times.json');
    const first = await (await get(park)).json();
    await site.advanceClock(4 * MINUTE);
    const second = await (await get(park)).json();
    expect(second.updatedAt).toBe(first.updatedAt);
    // A different query string misses the route cache but still reuses the fresh data.
    await get(`${park}&utm_source=x&other=1`);
    expect(requests()).toBe(1);

    // 6 minutes: the recorder's next write is due (none runs here), the stored data is still answered.
    await site.advanceClock(2 * MINUTE);
    await get(`${park}&late=1`);
    expect(requests()).toBe(1);
    await site.advanceClock(2 * MINUTE);
    upstream.delayMs = 500;
    const stale = await get(park);
    // Answered at once with the last data while the refresh runs.
    expect((await stale.json()).updatedAt).toBe(first.updatedAt);
    await eventually(() => requests() === 2);
    upstream.delayMs = 0;
    await eventually(async () => (await (await get(park)).json()).updatedAt > first.updatedAt);
    expect(requests()).toBe(2);
  });

  it('answers 502 with Retry-After and no-store when the upstream never answered', async () => {
    upstream.mode = 'error-500';
    const response = await get('/api/wait-times?park=volcano-bay');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'upstream unavailable' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
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
    const rendered = await get('/api/wait-times?park=magic-kingdom');
    const cached = await get('/api/wait-times?park=magic-kingdom');
    expect(rendered.headers.get('x-astro-cache')).toBe('MISS');
    expect(cached.headers.get('x-astro-cache')).toBe('HIT');
    expect(await cached.text()).toBe(await rendered.text());
    const comparable = (response: Response) =>
      [...response.headers].filter(([name]) => !['date', 'x-astro-cache', 'keep-alive', 'connection'].includes(name));
    expect(comparable(cached)).toEqual(comparable(rendered));
  });

  it('answers a URL with tracking or other parameters from the cache entry of its park', async () => {
    const rendered = await get('/api/wait-times?park=hollywood-studios');
    expect(rendered.headers.get('x-astro-cache')).toBe('MISS');
    const targets = [
      '/api/wait-times?park=hollywood-studios&utm_source=x',
      '/api/wait-times?campaign=1&park=hollywood-studios',
    ];
    for (const target of targets) {
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
