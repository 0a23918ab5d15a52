import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '@netlify/functions';
import { describe, expect, it } from 'vitest';
import { headersFor, loadHeaderRules } from '../../server/static-files.mts';
import { parseCacheControl, parseLinkHeader, parseMediaType } from '../support/http-headers.ts';

/**
 * The smoke over a site served by Netlify's own tooling (`npm run verify:netlify`: `netlify serve`
 * on loopback) or over a real deploy (`-- --remote`, read-only requests only). SMOKE_URL is where
 * it is served; SMOKE_SITE_URL the origin its documents must name (default: SMOKE_URL's);
 * SMOKE_TOKEN, given only locally, enables the requests that write (location POST → GET);
 * SMOKE_BUILD_DIR is the project copy `netlify build` ran in, whose output shows what Netlify's
 * edge will do where the CLI's local proxy differs from it.
 */
const BASE = new URL(process.env.SMOKE_URL ?? 'http://smoke-url-is-not-set.invalid').origin;
const SITE = new URL(process.env.SMOKE_SITE_URL ?? BASE).origin;
const TOKEN = process.env.SMOKE_TOKEN;
const BUILD_DIR = process.env.SMOKE_BUILD_DIR;
/** On Netlify's edge itself, not the CLI's local proxy. */
const EDGE = BUILD_DIR === undefined;

const get = (pathname: string, init: RequestInit = {}) => fetch(`${BASE}${pathname}`, { redirect: 'manual', ...init });

async function json(pathname: string): Promise<{ response: Response; body: Record<string, unknown> }> {
  const response = await get(pathname);
  return { response, body: (await response.json()) as Record<string, unknown> };
}

function expectApiHeaders(response: Response, cors: boolean, type = 'application/json') {
  expect(parseMediaType(response.headers.get('content-type')).essence).toBe(type);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const link = parseLinkHeader(response.headers.get('link'), BASE).find((l) => l.rels.includes('api-catalog'));
  expect(link && new URL(link.href).pathname).toBe('/.well-known/api-catalog');
  if (cors) expect(response.headers.get('access-control-allow-origin')).toBe('*');
}

describe('the public GET endpoints', () => {
  it.each([
    '/api/wait-times?park=epcot',
    '/api/wait-times/history?park=epcot',
    '/api/parks',
    '/api/accuracy',
    '/api/publish-status',
    '/api/recorder-status',
    '/api/professional-network-status',
    '/api/photo-feed',
    '/api/location',
  ])('%s answers 200 JSON, readable from any origin, with an ETag', async (pathname) => {
    const { response, body } = await json(pathname);
    expect(response.status).toBe(200);
    expectApiHeaders(response, true);
    expect(response.headers.get('etag')).toBeTruthy();
    expect(body).toBeTypeOf('object');
  });

  it.each([
    ['/api/parks/epcot/events?type=ride-down', 'application/feed+json; charset=utf-8'],
    ['/api/parks/epcot/events.atom?ride=1&below=20', 'application/atom+xml; charset=utf-8'],
  ])("%s, a park's feed, reaches the site's function with its own type and an ETag", async (pathname, type) => {
    const response = await get(pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expectApiHeaders(response, true, parseMediaType(type).essence);
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toContain('Queue-Times.com');
  });

  it('answers wait times as the contract shapes them', async () => {
    const { body } = await json('/api/wait-times?park=epcot');
    expect(Object.keys(body).sort()).toEqual(['rides', 'source', 'updatedAt']);
    expect(body.source).toBe('queue-times.com');
    for (const ride of body.rides as Record<string, unknown>[])
      expect(Object.keys(ride).sort()).toEqual(['forecast', 'id', 'name', 'open', 'trend', 'wait']);
  });

  it("answers every park's hours (locally from the fake provider) and the day's hours beside the waits", async () => {
    const { response, body } = await json('/api/parks');
    const parks = body.parks as { slug: string; hours: { opensAt: number; closesAt: number } | null }[];
    expect(parks).toHaveLength(17);
    expect(body.hoursSource).toBe('themeparks.wiki');
    // On a real deploy the provider may be down (hours null, never an error); the local fake is not.
    if (!EDGE) {
      for (const park of parks) expect(park.hours?.closesAt, park.slug).toBeGreaterThan(park.hours?.opensAt ?? 0);
      expect(response.headers.get('netlify-cache-tag')?.split(',')).toContain('parks');
    }
    const { body: day } = await json('/api/wait-times/history?park=epcot');
    expect(day).toHaveProperty('hours');
    if (!EDGE) expect(day.hours).toEqual(parks.find((park) => park.slug === 'epcot')?.hours);
  });

  it('answers 400 for a missing park, no-store', async () => {
    const { response, body } = await json('/api/wait-times');
    expect([response.status, body]).toEqual([400, { error: 'missing park' }]);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404 "unknown park" for an unknown park', async () => {
    const { response, body } = await json('/api/wait-times?park=atlantis');
    expect(response.status).toBe(404);
    // The CLI's proxy retries a 404 with .html suffixes and answers the last try's generic body;
    // Netlify's edge passes the function's own answer, which the build's SSR function gives here.
    const own = EDGE ? body : await (await builtSsr('/api/wait-times?park=atlantis')).json();
    expect(own).toEqual({ error: 'unknown park' });
  });

  it('tells caches how long to keep wait times, keyed by park and tagged, and revalidates with 304', async () => {
    const response = await get('/api/wait-times?park=epcot');
    await response.arrayBuffer();
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    if (EDGE) {
      const again = await get('/api/wait-times?park=epcot', { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
    } else {
      // No CDN in the CLI, so no 304: the function's instructions to Netlify's CDN are checked instead.
      const cdn = parseCacheControl(response.headers.get('netlify-cdn-cache-control'));
      expect([cdn.has('public'), cdn.has('durable'), cdn.get('stale-while-revalidate')]).toEqual([true, true, '600']);
      expect(response.headers.get('netlify-vary')).toBe('query=park');
      expect(response.headers.get('netlify-cache-tag')?.split(',')).toContain('wait-times:epcot');
    }
  });

  it('answers HEAD, OPTIONS preflights and 405 with Allow', async () => {
    const head = await get('/api/wait-times?park=epcot', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const preflight = await get('/api/wait-times?park=epcot', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    if (EDGE) return; // Read-only against a real deploy: no refused methods either.
    const refused = await get('/api/wait-times?park=epcot', { method: 'DELETE' });
    expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });
});

describe('discovery documents name the served origin', () => {
  it('/docs/openapi.json has it as its server', async () => {
    const { response, body } = await json('/docs/openapi.json');
    expect(response.status).toBe(200);
    expect((body.servers as { url: string }[])[0]?.url).toBe(SITE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('/docs/api/ shows it as the base URL', async () => {
    const response = await get('/docs/api/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await response.text()).toContain(SITE);
  });

  it('/.well-known/api-catalog is RFC 9727 Linkset JSON anchored on it', async () => {
    const response = await get('/.well-known/api-catalog');
    expect(response.status).toBe(200);
    expect(parseMediaType(response.headers.get('content-type')).essence).toBe('application/linkset+json');
    const catalog = (await response.json()) as { linkset: { anchor: string }[] };
    expect(catalog.linkset.map((context) => context.anchor)).toContain(`${SITE}/api/`);
  });

  it('/.well-known/oauth-protected-resource has it as the resource; no authorization server', async () => {
    const { response, body } = await json('/.well-known/oauth-protected-resource');
    expect([response.status, body.resource, body.authorization_servers]).toEqual([200, SITE, undefined]);
    const missing = await get('/.well-known/oauth-authorization-server');
    await missing.arrayBuffer();
    expect(missing.status).toBe(404);
  });

  it('the agent skills index lists SKILL.md at it, with the digest of the served bytes', async () => {
    const { body } = await json('/.well-known/agent-skills/index.json');
    const [skill] = body.skills as { url: string; digest: string }[];
    expect(skill?.url).toBe(`${SITE}/.well-known/agent-skills/park-wait-times/SKILL.md`);
    const response = await get('/.well-known/agent-skills/park-wait-times/SKILL.md');
    expect(parseMediaType(response.headers.get('content-type')).essence).toBe('text/markdown');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(skill?.digest);
    expect(bytes.toString('utf8')).toContain(SITE);
  });

  it.each(['/docs/openapi.json', '/.well-known/agent-skills/index.json'])(
    '%s is cached for 5 minutes by browsers',
    async (pathname) => {
      const response = await get(pathname);
      await response.arrayBuffer();
      // The CLI's static server sends its own Cache-Control; Netlify applies netlify.toml's rule.
      const cacheControl = EDGE
        ? response.headers.get('cache-control')
        : headersFor(await loadHeaderRules(BUILD_DIR), pathname)['Cache-Control'];
      expect(cacheControl).toBe('public, max-age=300');
    },
  );
});

describe('pages', () => {
  it('a park page embeds the widget from the served origin', async () => {
    const response = await get('/parks/epcot/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain(`&lt;script src=&quot;${SITE}/widgets/park-waits.js&quot; defer&gt;`);
  });

  it('the widget is served as JavaScript', async () => {
    const response = await get('/widgets/park-waits.js');
    expect(response.status).toBe(200);
    expect(parseMediaType(response.headers.get('content-type')).essence).toMatch(/^(text|application)\/javascript$/);
    expect(await response.text()).toContain('customElements.define');
  });
});

// Requests that write or could count against a client: only on the local, throw-away site.
if (!EDGE) {
  describe('the functions, over Blobs', () => {
    const post = (pathname: string, body: string, headers: Record<string, string> = {}) =>
      get(pathname, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

    it('refuses a location POST without a token, naming the metadata at the served origin', async () => {
      const response = await post('/api/location', '{"lat":1,"lon":2}');
      await response.arrayBuffer();
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(
        `resource_metadata="${SITE}/.well-known/oauth-protected-resource"`,
      );
    });

    // The CLI passes the Host a client names on as the functions' `context.url`; they name the
    // origin their build resolved all the same (scripts/bundle-functions.mts), never a client's.
    it('names the served origin, not the Host a request names', async () => {
      const host = 'renamed.localhost';
      const challenge = await postWithHost(host, '/api/location', '{"lat":1,"lon":2}');
      expect(challenge.status).toBe(401);
      expect(challenge.headers['www-authenticate']).toContain(
        `resource_metadata="${SITE}/.well-known/oauth-protected-resource"`,
      );
      const contact = await postWithHost(host, '/api/contact', '{"name":""}', { Origin: SITE });
      expect([contact.status, contact.headers['access-control-allow-origin']]).toEqual([400, SITE]);
    });

    it('shows a location POSTed by the owner (function) on the next GET (Astro function)', async () => {
      const sent = await post('/api/location', '{"lat":35.6762,"lon":139.6503,"label":"Tokyo"}', {
        Authorization: `Bearer ${TOKEN}`,
      });
      expect(sent.status).toBe(200);
      const { body } = await json('/api/location');
      expect(body).toMatchObject({ status: 'live', lat: 35.68, lon: 139.65, label: 'Tokyo' });
    });

    // The CLI matches a request to the functions in the order it happened to load them, so the SSR
    // function's catch-all can shadow ours; Netlify orders them by the manifest's `priority` (a
    // user function above a framework's), which is what this checks in the build output.
    it('routes POSTs to our functions before the SSR catch-all (manifest priority)', async () => {
      const manifest = JSON.parse(
        await readFile(path.join(BUILD_DIR ?? '', '.netlify/functions/manifest.json'), 'utf8'),
      ) as { functions: { name: string; priority?: number }[] };
      const priority = (name: string) => manifest.functions.find((fn) => fn.name === name)?.priority ?? Number.NaN;
      for (const name of ['location', 'contact']) expect(priority(name), name).toBeGreaterThan(priority('ssr'));
    });

    // Netlify runs it on its schedule; the CLI lets it be invoked by its default URL.
    it('runs the wait-times recorder (scheduled function): a park nobody asked for has its day', async () => {
      const response = await post('/.netlify/functions/record-waits', '{"next_run":null}');
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const run = JSON.parse(text) as {
        startedAt: number;
        finishedAt: number;
        parks: Record<string, unknown[]>;
      };
      expect(response.status).toBe(200);
      expect(run.parks.failed).toEqual([]);
      expect(run.parks.polled).toContain('volcano-bay');
      const { body } = await json('/api/wait-times/history?park=volcano-bay');
      const times = body.times as number[];
      // The sample is the recorder's: fetched during its run, before anyone asked for the park.
      expect(times).toHaveLength(1);
      expect(times[0]).toBeGreaterThanOrEqual(run.startedAt);
      expect(times[0]).toBeLessThanOrEqual(run.finishedAt);
    });

    it('answers a contact message 400 with issues when invalid, 503 with mail unconfigured', async () => {
      const invalid = await post('/api/contact', '{"name":"","email":"x","message":""}');
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { issues: unknown[] }).issues.length).toBe(3);
      const valid = await post('/api/contact', '{"name":"Smoke","email":"smoke@example.com","message":"hello"}');
      expect(valid.status).toBe(503);
      expect(await valid.json()).toMatchObject({ error: 'contact unavailable' });
    });
  });
}

/** A JSON POST to the served site that names another `Host` (fetch may not set one). */
function postWithHost(
  host: string,
  pathname: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const base = new URL(BASE);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname: base.hostname,
        port: base.port,
        path: pathname,
        method: 'POST',
        headers: { ...headers, Host: `${host}:${base.port}`, 'Content-Type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** The answer of the build's own SSR function, called in-process as Netlify would call it. */
async function builtSsr(pathname: string): Promise<Response> {
  const file = path.join(BUILD_DIR ?? '', '.netlify/v1/functions/ssr/ssr.mjs');
  const ssr = (await import(pathToFileURL(file).href)) as { default: (r: Request, c: Context) => Promise<Response> };
  const context = { ip: '127.0.0.1', params: {}, waitUntil: () => {} } as unknown as Context;
  return ssr.default(new Request(`${SITE}${pathname}`), context);
}
