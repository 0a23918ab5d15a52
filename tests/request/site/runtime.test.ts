import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSite, startSite } from '../../../server/runtime.mts';
import { LoopbackClient, type RawRequest } from '../../support/loopback-client.ts';
import { eventually, ROOT, startServedSite } from '../../support/served-site.ts';

// A project root of its own: the real build and netlify.toml, plus test functions that exercise each kind of `config`.
const FUNCTIONS: Record<string, string> = {
  'echo.mts': `
    export default async (req, context) => Response.json({
      method: req.method, params: context.params, ip: context.ip, body: await req.text(),
    });
    export const config = { path: '/api/echo/:id', method: ['POST', 'PUT'], excludedPath: '/api/echo/secret' };`,
  'plain.mts': `export default async () => new Response('plain function');`,
  'broken.mts': `
    export default async () => { throw new Error('boom'); };
    export const config = { path: '/api/broken' };`,
  'ticker.mts': `
    globalThis.tickerRuns ??= [];
    export default async (req) => { globalThis.tickerRuns.push(await req.json()); return new Response(null, { status: 204 }); };
    export const config = { schedule: '* * * * * *' };`,
};

let root: string;
let site: RunningSite;
/** When the site started: its first scheduled run's `next_run` is later (on a busy machine, long before the check). */
let started: number;
const get = (pathname: string, init?: RequestInit) => fetch(`${site.url}${pathname}`, init);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'site-api-root-'));
  await symlink(path.join(ROOT, 'dist'), path.join(root, 'dist'));
  await symlink(path.join(ROOT, 'netlify.toml'), path.join(root, 'netlify.toml'));
  await mkdir(path.join(root, 'netlify/functions'), { recursive: true });
  for (const [file, source] of Object.entries(FUNCTIONS)) {
    await writeFile(path.join(root, 'netlify/functions', file), source);
  }
  started = Date.now();
  site = await startSite({
    host: '127.0.0.1',
    port: 0,
    siteUrl: 'http://localhost:4321',
    dataDir: path.join(root, '.data'),
    root,
  });
});
afterAll(async () => {
  await site.close();
  await rm(root, { recursive: true, force: true });
});

describe('the local runtime', () => {
  it('routes a request to the function whose config path and method match, with path parameters', async () => {
    const response = await get('/api/echo/42', { method: 'POST', body: 'hello' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ method: 'POST', params: { id: '42' }, ip: '127.0.0.1', body: 'hello' });
    // As on Netlify, nothing is added to a function's own answer: the base headers are the function's to send.
    expect(response.headers.get('x-content-type-options')).toBeNull();
  });

  it.each([
    ['a method the function does not take', '/api/echo/42', 'GET'],
    ['an excluded path', '/api/echo/secret', 'POST'],
  ])('lets %s fall through to the site', async (_case, pathname, method) => {
    const response = await get(pathname, { method });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not found' });
  });

  it('serves a function without a path at its default /.netlify/functions/ URL', async () => {
    const response = await get('/.netlify/functions/plain');
    expect(await response.text()).toBe('plain function');
  });

  it('answers 500 with a JSON error and no stack when a function throws', async () => {
    const response = await get('/api/broken');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'internal error' });
    expect(text).not.toContain('boom');
  });

  it('runs no scheduled function with LOCAL_SCHEDULES=off (schedules: false), and names those it runs', async () => {
    expect(site.scheduled).toEqual(['ticker']);
    const quiet = await startSite({
      host: '127.0.0.1',
      port: 0,
      siteUrl: 'http://localhost:4321',
      dataDir: path.join(root, '.data-quiet'),
      root,
      schedules: false,
    });
    await quiet.close();
    expect(quiet.scheduled).toEqual([]);
  });

  it('runs a scheduled function on its own config.schedule with a next_run body', async () => {
    const runs = () => (globalThis as { tickerRuns?: { next_run: string }[] }).tickerRuns ?? [];
    await eventually(() => runs().length >= 1, 5_000);
    expect(Date.parse(runs()[0]?.next_run ?? '')).toBeGreaterThan(started);
    expect((await get('/.netlify/functions/ticker', { method: 'POST' })).status).toBe(404);
  });

  it.each([
    ['/no/such/page', 404, 'text/html'],
    ['/api/no/such/endpoint', 404, 'application/json'],
    ['/favicon.svg', 200, 'image/svg+xml'],
  ])('answers %s with %i %s', async (pathname, status, type) => {
    const response = await get(pathname);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain(type);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

/** Sends what fetch would refuse to (TRACE, any Host), from 127.0.0.1. */
async function raw(method: string, target: string, headers: RawRequest['headers'] = []) {
  const client = new LoopbackClient(site.url);
  try {
    const answer = await client.send({ method, target, headers, from: '127.0.0.1' }, 10_000);
    return { ...answer, text: answer.body.toString('utf8') };
  } finally {
    client.close();
  }
}

// Each of these once stopped the process or got an answer no route gave (found by tests/request/site/fuzz.test.ts).
describe('requests the site must survive', () => {
  it('answers TRACE as a method no route takes (405 with the route Allow, or 404), and stays up', async () => {
    const known = await raw('TRACE', '/api/wait-times?park=epcot');
    expect([known.status, known.headers.get('allow'), JSON.parse(known.text)]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
      { error: 'method not allowed' },
    ]);
    const unknown = await raw('TRACE', '/api/no/such/endpoint');
    expect([unknown.status, JSON.parse(unknown.text)]).toEqual([404, { error: 'not found' }]);
    expect((await get('/api/wait-times')).status).toBe(400);
  });

  it.each<[string, [string, string][]]>([
    ['with a space', [['Host', 'a b']]],
    ['empty', [['Host', '']]],
    ['not a host a URL can have', [['Host', '%2F']]],
    ['with a port out of range', [['Host', 'localhost:99999']]],
    [
      'sent twice',
      [
        ['Host', 'localhost'],
        ['Host', 'example.com'],
      ],
    ],
  ])('answers 400 to a Host header %s (RFC 9112 §3.2), and stays up', async (_case, headers) => {
    const answer = await raw('GET', '/api/no/such/endpoint', headers);
    expect([answer.status, JSON.parse(answer.text)]).toEqual([400, { error: 'invalid Host header' }]);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/api/wait-times')).status).toBe(400);
  });

  it.each([
    ['a stray % in the query', '/api/wait-times?park=%ZZ', { error: 'unknown park' }],
    ['bytes that are not UTF-8 in the query', '/api/wait-times?park=%FF', { error: 'unknown park' }],
    ['a stray % in the path', '/api/%ZZ', { error: 'not found' }],
  ])('routes a target with %s as URL parsing reads it, not with a bare text 400', async (_case, target, body) => {
    const response = await get(target);
    expect([response.status, await response.json()]).toEqual([404, body]);
  });

  it("answers /_image like any path the site does not have (it shows no images; Astro's endpoint answered 500)", async () => {
    const response = await get('/_image?href=/docs/openapi.json');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});

/** A GET with the request target exactly as given (fetch would normalise it first). */
function rawGet(target: string): Promise<http.IncomingMessage> {
  const { hostname, port } = new URL(site.url);
  return new Promise((resolve, reject) => {
    const request = http.get({ hostname, port, path: target }, (response) => {
      response.resume();
      resolve(response);
    });
    request.once('error', reject);
  });
}

describe('prerendered files', () => {
  it('get the headers of the page they are, however the path is spelled (broken escapes included)', async () => {
    const home = await rawGet('/');
    expect(home.headers['content-security-policy']).toBeTruthy();
    for (const target of ['/%/%2e%2e', '/x/..', '/%2e']) {
      const response = await rawGet(target);
      expect(response.statusCode, target).toBe(200);
      expect(response.headers['content-security-policy'], target).toBe(home.headers['content-security-policy']);
    }
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    'answer %s with 405 and an Allow header, not the file',
    async (method) => {
      const response = await get('/docs/openapi.json', { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await response.json()).toEqual({ error: 'method not allowed' });
    },
  );

  it.each(['GET', 'HEAD'])(
    'answer a %s for a range past their end with 416 that still carries their headers (found by the fuzz test)',
    async (method) => {
      const response = await get('/parks/', { method, headers: { Range: 'bytes=999999-' } });
      expect(response.status).toBe(416);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('link')).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    },
  );

  it('answer OPTIONS with 204 and the methods they take, and still carry their header rules', async () => {
    const response = await get('/.well-known/agent-skills/index.json', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.text()).toBe('');
  });
});

describe('npm run serve', () => {
  it('stops cleanly with exit code 0 on SIGTERM', async () => {
    const served = await startServedSite();
    expect((await fetch(`${served.url}/api/wait-times`)).status).toBe(400);
    expect(await served.stop()).toBe(0);
    expect(served.output()).toContain('SIGTERM: stopping');
  });

  it.each([
    ['SMTP_URL', { SMTP_URL: 'nonsense', CONTACT_TO: 'a@example.com', CONTACT_FROM: 'b@example.com' }],
    ['PORT', { PORT: 'eighty' }],
  ])('refuses to start with a malformed %s and names it', async (variable, env) => {
    const child = fork(path.join(ROOT, 'server/main.mts'), [], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(variable);
  });
});
