import { getStore } from '@netlify/blobs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import handler, { config } from '../../../netlify/functions/location.mts';
import { createContext } from '../../../server/functions.mts';
import { readPinState, readPublicLocation } from '../../../src/location/location.ts';
import { useLocalRouteCache } from '../../../src/platform/cache/route-cache.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { leafValues, locationFixture, locationFixtureText, parseChallenge } from '../../support/location-fixtures.ts';

const TOKEN = 'owner-token-0123456789abcdef';
const SITE = 'https://site.example';
/** A stale limit of about a century, so that the fixtures' old fixes still show live. */
const FOREVER_MINUTES = '52560000';
const ENV_KEYS = ['LOCATION_TOKEN', 'SITE_URL', 'LOCATION_STALE_AFTER_MINUTES'] as const;

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let savedEnv: Record<string, string | undefined>;
let background: Promise<unknown>[];

beforeEach(async () => {
  blobs = await startLocalBlobs();
  savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  process.env.LOCATION_TOKEN = TOKEN;
  process.env.SITE_URL = SITE;
  delete process.env.LOCATION_STALE_AFTER_MINUTES;
  background = [];
});

afterEach(async () => {
  await Promise.allSettled(background);
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  useLocalRouteCache(undefined);
  await blobs.stop();
});

const bearer = (token = TOKEN) => ({ Authorization: `Bearer ${token}` });
const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** Calls the function in-process with a real Request, as the runtime does. */
async function post(
  body: string | object,
  options: { headers?: Record<string, string>; ip?: string; query?: string } = {},
): Promise<Response> {
  const url = new URL(`${SITE}/api/location${options.query ?? ''}`);
  const request = new Request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(), ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const context = createContext({
    ip: options.ip ?? '198.51.100.20',
    url,
    params: {},
    siteUrl: SITE,
    waitUntil: (promise) => background.push(promise),
  });
  return handler(request, context);
}

const publicLocation = async () => (await readPublicLocation()).location;
const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('POST /api/location as a Netlify function', () => {
  it("is routed for POST only, on the GET endpoint's path with and without the trailing slash", () => {
    expect(config).toEqual({ path: ['/api/location', '/api/location/'], method: ['POST'] });
  });
});

describe('every real client payload, through the function', () => {
  const owntracksAnswer = locationFixture('location-owntracks-response-1.json');
  const overlandAnswer = locationFixture('location-overland-response-1.json');

  // [fixture, how the app authenticates, answer, what GET shows afterwards with a long stale limit]
  it.each<[string, Record<string, string>, unknown, unknown]>([
    ['location-owntracks-1.json', bearer(), owntracksAnswer, { lat: 48.86, lon: 2.29, tst: 1706858149 }],
    ['location-owntracks-2.json', bearer(), owntracksAnswer, { lat: 48.86, lon: 2.29, tst: 1706856298 }],
    ['location-owntracks-3.json', bearer(), owntracksAnswer, { lat: 52.23, lon: 13.33, tst: 1709283789 }],
    // OwnTracks on Android can only send Basic: the token is the password, the user name anything.
    ['location-owntracks-5.json', basic('jane', TOKEN), owntracksAnswer, { lat: 51, lon: 0, tst: 1709037003 }],
    ['location-owntracks-6.json', basic('', TOKEN), owntracksAnswer, { lat: -25.76, lon: 126.07, tst: 1721896446 }],
    ['location-owntracks-7.json', bearer(), owntracksAnswer, { lat: 52.09, lon: 5.12, tst: 1734377712 }],
    ['location-owntracks-8.json', bearer(), owntracksAnswer, { lat: 48.86, lon: 2.3, tst: 1497476456 }],
    ['location-owntracks-10.json', bearer(), owntracksAnswer, { lat: 52.23, lon: 13.34, tst: 1709318411 }],
    ['location-overland-1.json', bearer(), overlandAnswer, { lat: 37.33, lon: -122.03, tst: 1443711600 }],
  ])('accepts %s and answers as the app expects', async (name, auth, answer, pin) => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    const response = await post(locationFixtureText(name), { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(answer);
    const { lat, lon, tst } = pin as { lat: number; lon: number; tst: number };
    expect(await publicLocation()).toEqual({ status: 'live', lat, lon, updatedAt: isoOfSeconds(tst) });
  });

  it.each([
    ['location-gpslogger-1.json', { lat: 42.76, lon: -1.64 }],
    ['location-shortcuts-1.json', { lat: 40.71, lon: -74.01, label: 'work' }],
  ])('accepts %s as a plain body and answers with the new GET body', async (name, expected) => {
    const response = await post(locationFixtureText(name));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ status: 'live', ...expected, updatedAt: expect.any(String) });
    expect(await publicLocation()).toEqual(body);
  });

  it('accepts an OwnTracks transition and changes nothing', async () => {
    await post(locationFixtureText('location-owntracks-8.json'));
    const before = await readPinState();
    const response = await post(locationFixtureText('location-owntracks-4.json'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(owntracksAnswer);
    expect(await readPinState()).toEqual(before);
  });

  it('shows an old fix as stale, with its time, under the default 6-hour limit', async () => {
    await post(locationFixtureText('location-owntracks-1.json'));
    expect(await publicLocation()).toEqual({ status: 'stale', updatedAt: isoOfSeconds(1706858149) });
  });

  it('refuses the GPSLogger GeoJSON file (not a request any app sends) with 400 and the issue', async () => {
    const response = await post(locationFixtureText('location-gpslogger-2-geojson-file.json'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid location update',
      issues: [{ path: 'lat', message: expect.any(String) }],
    });
    expect(await publicLocation()).toEqual({ status: 'stale', updatedAt: null });
  });

  it('accepts the zero-length body OwnTracks sends when a friend is deleted', async () => {
    const empty = { 'Content-Length': '0' };
    const ios = await post('', { headers: { ...empty, 'X-Limit-U': 'jane', 'X-Limit-D': 'phone' } });
    expect([ios.status, await ios.json()]).toEqual([200, []]);
    const android = await post('', { headers: { ...empty, 'User-Agent': 'Owntracks-Android/gms/420412000' } });
    expect([android.status, await android.json()]).toEqual([200, []]);
    // From anything else an empty body is just not JSON.
    const other = await post('', { headers: empty });
    expect([other.status, await other.json()]).toEqual([400, { error: 'body is not valid JSON' }]);
  });
});

describe('privacy', () => {
  const ALLOWED = ['status', 'lat', 'lon', 'updatedAt', 'label'];
  const requests = [
    'location-owntracks-1.json',
    'location-owntracks-3.json',
    'location-owntracks-5.json',
    'location-owntracks-6.json',
    'location-owntracks-7.json',
    'location-owntracks-10.json',
    'location-overland-1.json',
    'location-gpslogger-1.json',
    'location-shortcuts-1.json',
  ];

  it.each(requests)('publishes nothing from %s but a coarse position (and a label the owner sent)', async (name) => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    const sent = locationFixture(name);
    await post(sent);
    const published = await publicLocation();
    expect(published.status).toBe('live');
    expect(Object.keys(published).every((key) => ALLOWED.includes(key))).toBe(true);
    // `updatedAt` is the position's time, published on purpose (and, for bodies without one, the
    // server's clock, whose digits can match anything): the scan covers the other fields.
    expect(Number.isNaN(Date.parse(published.updatedAt ?? ''))).toBe(false);
    const text = JSON.stringify({ ...published, updatedAt: undefined });
    // Every distinctive value the phone sent: strings of 3 characters or more (SSIDs, topics,
    // device ids, images…) and numbers other than small integers (precise coordinates, battery,
    // speed, pressure…). Short ones like "w" or 53 would match any JSON by chance.
    const distinctive = leafValues(sent).filter((value) =>
      typeof value === 'string'
        ? value.length >= 3
        : typeof value === 'number' && !(Number.isInteger(value) && Math.abs(value) < 1000),
    );
    expect(distinctive.length).toBeGreaterThan(0);
    for (const value of distinctive) {
      if (value === 'work') continue; // the label of the Shortcut body: published on purpose
      expect(text, `${name} leaked ${String(value)}`).not.toContain(String(value));
    }
    if (published.status === 'live') {
      expect(String(published.lat)).toMatch(/^-?\d+(\.\d{1,2})?$/);
      expect(String(published.lon)).toMatch(/^-?\d+(\.\d{1,2})?$/);
    }
  });

  it('stores nothing but the coarse position, its time and the label', async () => {
    for (const name of requests) await post(locationFixture(name));
    const store = getStore({ name: 'location', consistency: 'strong' });
    const { blobs: stored } = await store.list();
    expect(stored.length).toBeGreaterThan(0);
    for (const { key } of stored) {
      const record = (await store.get(key, { type: 'json' })) as Record<string, unknown>;
      if (key.startsWith('travel/')) continue;
      expect(Object.keys(record).every((field) => ['lat', 'lon', 'at', 'label'].includes(field))).toBe(true);
      expect(String(record.lat)).toMatch(/^-?\d+(\.\d{1,2})?$/);
      expect(String(record.lon)).toMatch(/^-?\d+(\.\d{1,2})?$/);
    }
  });
});

describe('ordering', () => {
  const fixAt = (seconds: number, lat: number) => ({ _type: 'location', lat, lon: 10, tst: seconds });
  const NEWER = 1709318411; // fixture 10
  const OLDER = 1709283789; // fixture 3

  it.each([
    ['newer then older', [NEWER, OLDER]],
    ['older then newer', [OLDER, NEWER]],
  ])('keeps the newest fix whatever the arrival order (%s)', async (_case, order) => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    for (const seconds of order) {
      const response = await post(fixAt(seconds, seconds === NEWER ? 52.234 : 1));
      expect(response.status).toBe(200); // a late fix is still answered as accepted
    }
    expect(await publicLocation()).toEqual({ status: 'live', lat: 52.23, lon: 10, updatedAt: isoOfSeconds(NEWER) });
  });

  // Real concurrency through the function (auth, rate limiter, Blobs); the local server's
  // temporary-file race it once lost is pinned down deterministically by the next test.
  it('keeps the newest of 20 fixes posted at once in random order, and prunes the rest', async () => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    let newest = 0;
    for (let round = 0; round < 2; round++) {
      const base = 1_763_000_000 + round * 3600;
      const times = Array.from({ length: 20 }, (_, i) => base + i * 60).sort(() => Math.random() - 0.5);
      const answers = await Promise.all(times.map((seconds) => post(fixAt(seconds, 40 + (seconds - base) / 6000))));
      expect(answers.map((response) => response.status)).toEqual(times.map(() => 200));
      newest = base + 19 * 60;
      expect(await publicLocation()).toEqual({ status: 'live', lat: 40.19, lon: 10, updatedAt: isoOfSeconds(newest) });
    }
    // One more write prunes whatever the concurrent writers left behind, once it has answered.
    await post(fixAt(newest + 60, 41));
    await Promise.all(background);
    const { blobs: pins } = await getStore({ name: 'location', consistency: 'strong' }).list({ prefix: 'pin/' });
    expect(pins).toHaveLength(1);
  });

  it("ignores keys that are not its own, such as the local server's files of writes in progress", async () => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    const store = getStore({ name: 'location', consistency: 'strong' });
    // What the local BlobsServer lists while another write is between its temp file and rename.
    await store.set('pin/.k7cc9voyif', 'partial');
    await store.set('pin/zzz-not-a-pin', 'x');
    expect((await post(fixAt(NEWER, 52.234))).status).toBe(200);
    expect(await publicLocation()).toEqual({ status: 'live', lat: 52.23, lon: 10, updatedAt: isoOfSeconds(NEWER) });
    // And it never deletes them (once it has answered): the temporary file belongs to a write still running.
    await post(fixAt(NEWER + 60, 52.234));
    await Promise.all(background);
    expect((await store.list({ prefix: 'pin/' })).blobs.map((blob) => blob.key)).toEqual(
      expect.arrayContaining(['pin/.k7cc9voyif', 'pin/zzz-not-a-pin']),
    );
  });

  it('answers a plain update that is older than the stored pin with the pin that stays', async () => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    await post({ lat: 10, lon: 10, timestamp: '2026-01-02T00:00:00Z' });
    const response = await post({ lat: 20, lon: 20, timestamp: '2026-01-01T00:00:00Z' });
    expect(await response.json()).toEqual({ status: 'live', lat: 10, lon: 10, updatedAt: '2026-01-02T00:00:00.000Z' });
  });
});

describe('travel mode', () => {
  it('"active": false ends it until "active": true, whatever the apps keep sending', async () => {
    const start = Date.now();
    const minutesAgo = (minutes: number) => new Date(start - minutes * 60_000).toISOString();
    await post({ lat: 38.7223, lon: -9.1393, label: 'Lisbon', timestamp: minutesAgo(30) });
    expect(await publicLocation()).toMatchObject({ status: 'live', lat: 38.72, lon: -9.14, label: 'Lisbon' });

    const off = await post({ active: false, timestamp: minutesAgo(20) });
    expect(await off.json()).toEqual({ status: 'stale', updatedAt: minutesAgo(30) });

    // OwnTracks still running: accepted, not published.
    const late = await post({ _type: 'location', lat: 40.4, lon: -3.7, tst: Math.floor(start / 1000) - 600 });
    expect(await late.json()).toEqual([]);
    expect(await publicLocation()).toEqual({ status: 'stale', updatedAt: minutesAgo(30) });

    const on = await post({ active: true, lat: 40.4168, lon: -3.7038, timestamp: minutesAgo(5) });
    expect(await on.json()).toEqual({ status: 'live', lat: 40.42, lon: -3.7, updatedAt: minutesAgo(5) });
  });
});

describe('travel switches in storage', () => {
  const store = () => getStore({ name: 'location', consistency: 'strong' });
  const lateFix = { _type: 'location', lat: 40.4, lon: -3.7, tst: 1_763_000_600 };

  it('plans an update from the switch its key names, whatever its record holds', async () => {
    process.env.LOCATION_STALE_AFTER_MINUTES = FOREVER_MINUTES;
    await post({ active: false, timestamp: '2025-11-13T00:00:00Z' });
    const [key] = (await store().list({ prefix: 'travel/' })).blobs.map((blob) => blob.key);
    expect(key).toMatch(/^travel\/001762992000000-off-[0-9a-f-]{36}$/);
    await store().set(key ?? '', 'damaged');
    expect(await (await post(lateFix)).json()).toEqual([]);
    expect(await readPinState()).toMatchObject({
      pin: null,
      travel: { active: false, at: Date.parse('2025-11-13T00:00:00Z') },
    });
  });
});

describe('authentication', () => {
  const plain = { lat: 1, lon: 2 };
  const challengeOf = (response: Response) =>
    Object.fromEntries(parseChallenge(response.headers.get('www-authenticate') ?? '').params);

  it.each<[string, Record<string, string>, string, number, string | undefined]>([
    ['no Authorization header', { Authorization: '' }, '', 401, undefined],
    ['a forged token', bearer('forged-token-0123456789abcdef'), '', 401, 'invalid_token'],
    ['the token in a different case', bearer(TOKEN.toUpperCase()), '', 401, 'invalid_token'],
    ['the token with one character more', bearer(`${TOKEN}x`), '', 401, 'invalid_token'],
    ['Basic with a wrong password', basic('jane', 'nope'), '', 401, 'invalid_token'],
    ['the token as a Basic user name', basic(TOKEN, ''), '', 401, 'invalid_token'],
    ['an unsupported scheme', { Authorization: `Token ${TOKEN}` }, '', 401, undefined],
    ['only a query token', { Authorization: '' }, `?access_token=${TOKEN}`, 401, undefined],
    ['a malformed bearer token', { Authorization: 'Bearer two words' }, '', 400, 'invalid_request'],
    ['Bearer without a token', { Authorization: 'Bearer' }, '', 400, 'invalid_request'],
    ['Basic that is not base64', { Authorization: 'Basic !!' }, '', 400, 'invalid_request'],
    ['the token sent two ways', bearer(), `?access_token=${TOKEN}`, 400, 'invalid_request'],
  ])('refuses %s', async (_case, headers, query, status, error) => {
    const response = await post(plain, { headers, query });
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const challenge = challengeOf(response);
    expect(challenge).toMatchObject({
      realm: 'site-api',
      resource_metadata: `${SITE}/.well-known/oauth-protected-resource`,
    });
    expect(challenge.error).toBe(error);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect(await publicLocation()).toEqual({ status: 'stale', updatedAt: null });
  });

  it.each([
    ['Bearer', `Bearer ${TOKEN}`],
    ['bearer', `bearer ${TOKEN}`],
    ['BEARER', `BEARER ${TOKEN}`],
  ])('accepts the scheme written %s', async (_case, authorization) => {
    expect((await post(plain, { headers: { Authorization: authorization } })).status).toBe(200);
  });

  it('answers 429 with Retry-After after 10 failures from one client, even to the right token', async () => {
    const ip = '203.0.113.66';
    for (let i = 0; i < 10; i++) {
      expect((await post(plain, { headers: bearer(`wrong-token-${i}-0123456789`), ip })).status).toBe(401);
    }
    const limited = await post(plain, { ip });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    // Another client is not affected.
    expect((await post(plain, { ip: '203.0.113.67' })).status).toBe(200);
  });

  it('does not count requests without credentials as failures', async () => {
    const ip = '203.0.113.80';
    for (let i = 0; i < 12; i++) expect((await post(plain, { headers: { Authorization: '' }, ip })).status).toBe(401);
    expect((await post(plain, { ip })).status).toBe(200);
  });

  it('answers 401 to everything when no LOCATION_TOKEN is configured', async () => {
    delete process.env.LOCATION_TOKEN;
    for (let i = 0; i < 12; i++) {
      const response = await post(plain);
      expect(response.status).toBe(401);
      expect(challengeOf(response).error).toBe('invalid_token');
    }
    expect(challengeOf(await post(plain, { headers: { Authorization: '' } })).error).toBeUndefined();
  });

  it('reads no body before the token is checked', async () => {
    const response = await post('not json at all', { headers: { Authorization: '', 'Content-Type': 'text/plain' } });
    expect(response.status).toBe(401);
  });
});

describe('bodies', () => {
  it('answers 413 to a body over 64 KiB (an OwnTracks image, say)', async () => {
    const big = { _type: 'location', lat: 1, lon: 2, tst: 1734377712, image: 'A'.repeat(64 * 1024) };
    const response = await post(big);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'body larger than 65536 bytes' });
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const base = JSON.stringify({ lat: 1, lon: 2, note: '' });
    const body = JSON.stringify({ lat: 1, lon: 2, note: 'x'.repeat(64 * 1024 - base.length) });
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    expect((await post(body)).status).toBe(200);
  });

  it.each([
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['application/json; charset=utf-8', 200],
    ['application/geo+json', 200],
  ])('answers a %s body with %i', async (contentType, status) => {
    expect((await post({ lat: 1, lon: 2 }, { headers: { 'Content-Type': contentType } })).status).toBe(status);
  });

  it.each([
    ['JSON that does not parse', '{"lat": 1,'],
    ['an out-of-range latitude', JSON.stringify({ lat: 123, lon: 2 })],
    ['a non-number', JSON.stringify({ lat: 'north', lon: 2 })],
    ['an array', '[]'],
  ])('answers 400 to %s', async (_case, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.any(String) });
  });
});

describe('reading the pin', () => {
  const DAMAGED_KEY = 'pin/001700000000000-0b5c8a1e-3f4d-4c2b-9a7e-5d6f7a8b9c0d';

  it.each([
    ['a record that fails its schema', JSON.stringify({ lat: 'oops', at: 1 })],
    ['a record that is not JSON', '{"lat": 48.8'],
  ])('reads %s as no pin, and the next update replaces it', async (_case, content) => {
    await getStore({ name: 'location', consistency: 'strong' }).set(DAMAGED_KEY, content);
    expect(await readPublicLocation()).toEqual({ location: { status: 'stale', updatedAt: null }, degraded: false });
    expect((await post({ lat: 1, lon: 2 })).status).toBe(200);
    expect(await publicLocation()).toMatchObject({ status: 'live', lat: 1, lon: 2 });
  });

  describe('with Blobs unreachable', () => {
    let context: string | undefined;
    beforeEach(() => {
      context = process.env.NETLIFY_BLOBS_CONTEXT;
      const nowhere = 'http://127.0.0.1:9'; // discard port: connection refused
      process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
        JSON.stringify({ siteID: 's', token: 't', edgeURL: nowhere, uncachedEdgeURL: nowhere }),
      ).toString('base64');
    });
    afterEach(() => {
      process.env.NETLIFY_BLOBS_CONTEXT = context;
    });

    it('GET reads the stale marker, flagged as degraded (not to be cached)', async () => {
      expect(await readPublicLocation()).toEqual({ location: { status: 'stale', updatedAt: null }, degraded: true });
    });

    it('POST answers 503, which the apps retry, and lets nobody through unchecked', async () => {
      for (const headers of [bearer(), bearer('forged-token-0123456789abcdef')]) {
        const response = await post({ lat: 1, lon: 2 }, { headers });
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({ error: 'location store unavailable' });
      }
    });
  });
});

describe('cache invalidation', () => {
  it('invalidates the cached GET when the published pin changes, and only then', async () => {
    const invalidated: string[][] = [];
    useLocalRouteCache({ invalidate: async ({ tags }) => void invalidated.push(tags) });
    await post({ lat: 1, lon: 2, timestamp: '2026-01-02T00:00:00Z' });
    expect(invalidated).toEqual([['location']]);
    await post({ lat: 5, lon: 5, timestamp: '2026-01-01T00:00:00Z' }); // older: nothing changes
    await post(locationFixture('location-owntracks-4.json')); // a transition: nothing changes
    expect(invalidated).toEqual([['location']]);
  });
});
