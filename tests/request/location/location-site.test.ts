import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationFixtureText, parseChallenge } from '../../support/location-fixtures.ts';
import { BUILT_SITE_URL, type ServedSite, startServedSite } from '../../support/served-site.ts';

/**
 * /api/location and the RFC 9728 document through the built site, started as `npm run serve`
 * starts it: the POST function and the GET endpoint share one path, one process, one route cache.
 */
const TOKEN = 'served-owner-token-0123456789';
const SITE = BUILT_SITE_URL;
const METADATA_URL = `${SITE}/.well-known/oauth-protected-resource`;

let site: ServedSite;

beforeAll(async () => {
  site = await startServedSite({ env: { LOCATION_TOKEN: TOKEN, SITE_URL: SITE }, clock: true });
});

afterAll(async () => {
  await site?.stop();
});

const get = (path = '/api/location', init: RequestInit = {}) => fetch(`${site.url}${path}`, init);
const post = (body: string | object, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }) =>
  fetch(`${site.url}/api/location`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('GET /api/location', () => {
  it('answers the stale marker before any update, for any origin, cached about a minute', async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'stale', updatedAt: null });
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('x-astro-cache')).toBe('MISS');
    expect((await get()).headers.get('x-astro-cache')).toBe('HIT');
  });

  it('shows a new pin at once after a POST, although the old answer was cached', async () => {
    expect((await get()).headers.get('x-astro-cache')).toBe('HIT');
    const update = await post({ lat: 35.6762, lon: 139.6503, label: 'Tokyo' });
    expect(update.status).toBe(200);
    const answer = await update.json();
    expect(answer).toEqual({ status: 'live', lat: 35.68, lon: 139.65, label: 'Tokyo', updatedAt: expect.any(String) });
    const after = await get();
    expect(after.headers.get('x-astro-cache')).toBe('MISS');
    expect(await after.json()).toEqual(answer);
  });

  it('answers HEAD like GET, without a body', async () => {
    const [head, full] = [await get('/api/location', { method: 'HEAD' }), await get()];
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin']) {
      expect(head.headers.get(name)).toBe(full.headers.get(name));
    }
  });

  it('answers If-None-Match with 304', async () => {
    const etag = (await get()).headers.get('etag') ?? '';
    const conditional = await get('/api/location', { headers: { 'If-None-Match': etag } });
    expect(conditional.status).toBe(304);
  });

  it('answers a CORS preflight for reading only, and names POST in Allow', async () => {
    const preflight = await get('/api/location', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('answers %s with 405 and the true Allow list', async (method) => {
    const response = await get('/api/location', { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(await response.json()).toEqual({ error: 'method not allowed' });
  });
});

describe('POST /api/location through the served site', () => {
  it.each<[string, Record<string, string>, string | undefined]>([
    ['no token', {}, undefined],
    ['a wrong token', { Authorization: 'Bearer not-the-owner-token-12345' }, 'invalid_token'],
    ['the token in upper case', { Authorization: `Bearer ${TOKEN.toUpperCase()}` }, 'invalid_token'],
  ])('answers %s with 401, an RFC 6750 challenge and no-store, and no CORS', async (_case, headers, error) => {
    const response = await post({ lat: 1, lon: 2 }, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const { scheme, params } = parseChallenge(response.headers.get('www-authenticate') ?? '');
    expect(scheme).toBe('Bearer');
    expect(Object.fromEntries(params)).toMatchObject({ realm: 'site-api', resource_metadata: METADATA_URL });
    expect(Object.fromEntries(params).error).toBe(error);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('takes an OwnTracks message with Basic auth (Android) and answers []', async () => {
    const basic = `Basic ${Buffer.from(`jane:${TOKEN}`).toString('base64')}`;
    const response = await post(locationFixtureText('location-owntracks-5.json'), {
      Authorization: basic,
      'User-Agent': 'Owntracks-Android/gms/420412000',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    // That fix (2024) is older than the Tokyo pin: the pin stays.
    expect(await (await get()).json()).toMatchObject({ status: 'live', label: 'Tokyo' });
  });

  it('takes an update at /api/location/ as at /api/location: the site serves both spellings', async () => {
    const response = await fetch(`${site.url}/api/location/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      // Older than the Tokyo pin: accepted, and the pin stays.
      body: JSON.stringify({ lat: 1, lon: 2, timestamp: '2020-01-01T00:00:00Z' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'live', label: 'Tokyo' });
  });

  it('takes an Overland batch and answers {"result":"ok"}', async () => {
    const response = await post(locationFixtureText('location-overland-1.json'));
    expect([response.status, await response.json()]).toEqual([200, { result: 'ok' }]);
  });

  it('takes the zero-length body OwnTracks sends and answers []', async () => {
    const response = await post('', { Authorization: `Bearer ${TOKEN}`, 'X-Limit-U': 'jane', 'X-Limit-D': 'phone' });
    expect([response.status, await response.json()]).toEqual([200, []]);
  });

  it('answers 413 to a body over 64 KiB and 415 to one that is not JSON', async () => {
    const big = await post({ _type: 'location', lat: 1, lon: 2, tst: 1734377712, image: 'A'.repeat(70_000) });
    expect(big.status).toBe(413);
    const text = await post('lat=1&lon=2', { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    for (const response of [big, text]) expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('shows the stale marker once the pin is older than LOCATION_STALE_AFTER_MINUTES', async () => {
    const live = await (await get()).json();
    expect(live.status).toBe('live');
    await site.advanceClock(361 * 60_000);
    expect(await (await get()).json()).toEqual({ status: 'stale', updatedAt: live.updatedAt });
  });

  it('never writes the token to the log', () => {
    expect(site.output()).not.toContain(TOKEN);
  });
});

describe('discovery', () => {
  it('serves RFC 9728 metadata naming SITE_URL as the resource, and no authorization server', async () => {
    const response = await get('/.well-known/oauth-protected-resource');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const metadata = await response.json();
    expect(metadata).toEqual({
      resource: SITE,
      bearer_methods_supported: ['header'],
      resource_name: expect.any(String),
      resource_documentation: `${SITE}/docs/api/`,
    });
    // RFC 9728 §3.3: the 401's resource_metadata URL is this document for this resource.
    expect(new URL(METADATA_URL).pathname).toBe('/.well-known/oauth-protected-resource');
    const head = await get('/.well-known/oauth-protected-resource', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
    'has no %s: there is no authorization server, on purpose',
    async (path) => {
      expect((await get(path)).status).toBe(404);
      expect((await get(path, { method: 'HEAD' })).status).toBe(404);
    },
  );

  it('describes POST /api/location as the one protected operation in /docs/openapi.json', async () => {
    const document = await (await get('/docs/openapi.json')).json();
    expect(document.paths['/api/location'].post.security).toEqual([
      { bearerAuth: [] },
      { ownerTokenAsBasicPassword: [] },
    ]);
    expect(document.paths['/api/location'].get.security ?? []).toEqual([]);
    expect(document.security).toEqual([]);
  });
});
