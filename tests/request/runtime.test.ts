import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSite, startSite } from '../../server/runtime.mts';
import { eventually, ROOT, startServedSite } from '../support/served-site.ts';

// A project root of its own: the real build, plus test functions that exercise each kind of `config`.
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
const get = (pathname: string, init?: RequestInit) => fetch(`${site.url}${pathname}`, init);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'site-api-root-'));
  await symlink(path.join(ROOT, 'dist'), path.join(root, 'dist'));
  await mkdir(path.join(root, 'netlify/functions'), { recursive: true });
  for (const [file, source] of Object.entries(FUNCTIONS)) {
    await writeFile(path.join(root, 'netlify/functions', file), source);
  }
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
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
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

  it('runs a scheduled function on its own config.schedule with a next_run body', async () => {
    const runs = () => (globalThis as { tickerRuns?: { next_run: string }[] }).tickerRuns ?? [];
    await eventually(() => runs().length >= 1, 5_000);
    expect(Date.parse(runs()[0]?.next_run ?? '')).toBeGreaterThan(Date.now() - 2_000);
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
