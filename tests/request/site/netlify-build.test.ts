import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Context } from '@netlify/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_FUNCTIONS_DIR, FUNCTION_SOURCES_DIR } from '../../../scripts/bundle-functions.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { copyProject } from '../../../scripts/netlify-cli.mts';
import { BASE_HEADERS } from '../../../src/platform/http.ts';
import { writeRecord } from '../../../src/platform/store.ts';
import { DayRecordSchema } from '../../../src/wait-times/day/history-schemas.ts';
import { ParkEventsSchema } from '../../../src/wait-times/events/event-schemas.ts';
import { baseHeadersOf } from '../../support/http-headers.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

let copy: string;
let build: { status: number | null; output: string };

beforeAll(async () => {
  // In a copy of the project, so that it never disturbs the local build in dist/.
  copy = await copyProject();
  const result = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: copy,
    // As Netlify's CLI runs it (`netlify build`: NETLIFY_LOCAL, not NETLIFY), with no SITE_URL:
    // the site's address is Netlify's own URL.
    env: {
      PATH: process.env.PATH ?? '',
      NETLIFY_LOCAL: 'true',
      CONTEXT: 'production',
      URL: 'https://site.example',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    encoding: 'utf8',
  });
  build = { status: result.status, output: `${result.stdout}${result.stderr}` };
  // About 20 s on a quiet machine; beside a second clone's `npm test` it once took over 3 minutes.
}, 600_000);
afterAll(() => rm(copy, { recursive: true, force: true }));

interface UserFunction {
  name: string;
  config: Config;
}
/** The functions Netlify deploys: the build's bundles of netlify/functions (scripts/bundle-functions.mts). */
async function userFunctions(dir = path.join(copy, BUNDLED_FUNCTIONS_DIR)): Promise<UserFunction[]> {
  const files = (await readdir(dir).catch(() => [])).filter((file) => /\.(mts|ts|mjs|js)$/.test(file));
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { config?: Config };
      return { name: file.replace(/\.\w+$/, ''), config: module.config ?? {} };
    }),
  );
}
/**
 * Copies `files` (relative to the build copy) into a new folder with no node_modules above it and
 * imports each there: a module that still imports a package fails to load.
 */
async function importWithoutPackages(files: string[]): Promise<void> {
  const isolated = await mkdtemp(path.join(tmpdir(), 'site-api-no-packages-'));
  try {
    for (const file of files) await cp(path.join(copy, file), path.join(isolated, file), { recursive: true });
    // A plain Node process (vitest's own module runner would resolve packages from the project).
    const modules = files.filter((f) => f.endsWith('.mjs')).map((f) => pathToFileURL(path.join(isolated, f)).href);
    const script = `for (const m of ${JSON.stringify(modules)}) await import(m).catch((e) => { console.error(m, e.message); process.exitCode = 1; });`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: isolated,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  } finally {
    await rm(isolated, { recursive: true, force: true });
  }
}
const pathsOf = (config: Config): string[] => ('path' in config && config.path ? [config.path].flat() : []);
const methodsOf = (config: Config): string[] | 'all' => (config.method ? [config.method].flat() : 'all');

describe("the Netlify build (as Netlify's CLI runs it, without SITE_URL)", () => {
  it('succeeds with the Netlify adapter, without a sessions driver or a warning', () => {
    expect(build.status, build.output).toBe(0);
    expect(build.output).toContain('@astrojs/netlify');
    expect(build.output).not.toMatch(/sessions/i);
    expect(build.output).not.toMatch(/\bwarn(ing)?\b/i);
  });

  it("names Netlify's URL in the prerendered documents", async () => {
    const openapi = JSON.parse(await readFile(path.join(copy, 'dist/docs/openapi.json'), 'utf8'));
    expect(openapi.servers[0].url).toBe('https://site.example');
    const skills = await readFile(path.join(copy, 'dist/.well-known/agent-skills/index.json'), 'utf8');
    expect(skills).toContain('"https://site.example/.well-known/agent-skills/park-wait-times/SKILL.md"');
    expect(await readFile(path.join(copy, 'dist/parks/epcot/index.html'), 'utf8')).toContain(
      'https://site.example/widgets/park-waits.js',
    );
  });

  it('publishes the widget, bundled from src/widget/ into one script without imports', async () => {
    const widget = await readFile(path.join(copy, 'dist/widgets/park-waits.js'), 'utf8');
    expect(widget).toContain('customElements.define(TAG, ParkWaits)');
    expect(widget).not.toMatch(/^\s*import\b/m);
  });

  it('emits one SSR function that claims every path but prefers static files', async () => {
    const ssr = await readFile(path.join(copy, '.netlify/v1/functions/ssr/ssr.mjs'), 'utf8');
    expect(ssr).toMatch(/path:\s*'\/\*'/);
    expect(ssr).toMatch(/preferStatic:\s*true/);
    expect(ssr).not.toMatch(/method:/);
  });

  it('pins Node 24, the publish folder and the bundled functions folder in netlify.toml', async () => {
    const toml = await readFile(path.join(copy, 'netlify.toml'), 'utf8');
    expect(toml).toMatch(/NODE_VERSION\s*=\s*"24"/);
    expect(toml).toMatch(/publish\s*=\s*"dist"/);
    expect(toml).toContain(`directory = "${BUNDLED_FUNCTIONS_DIR}"`);
  });

  it("bundles every function with its dependencies, keeping each one's config; mail code loads on demand", async () => {
    const sources = await userFunctions(path.join(copy, FUNCTION_SOURCES_DIR));
    const bundled = await userFunctions();
    expect(bundled.map((fn) => fn.name).sort()).toEqual(sources.map((fn) => fn.name).sort());
    for (const { name, config } of sources)
      expect(bundled.find((fn) => fn.name === name)?.config, name).toEqual(config);
    const files = (await readdir(path.join(copy, BUNDLED_FUNCTIONS_DIR), { recursive: true })).filter((file) =>
      file.endsWith('.mjs'),
    );
    await importWithoutPackages(files.map((file) => path.join(BUNDLED_FUNCTIONS_DIR, file)));
    // The functions that send mail load nodemailer (bundled in a chunk) when a message goes out.
    for (const name of ['contact', 'contact-retry']) {
      const source = await readFile(path.join(copy, BUNDLED_FUNCTIONS_DIR, `${name}.mjs`), 'utf8');
      expect(source, name).toMatch(/import\(\s*["']\.\/chunks\/nodemailer-[\w-]+\.mjs["']\s*\)/);
      expect(source, name).not.toMatch(/\bfrom\s*["']\.\/chunks\/nodemailer-/);
    }
  });

  it('bundles the dependencies of the SSR function too: every module of it loads without node_modules', async () => {
    const chunks = (await readdir(path.join(copy, '.netlify/build'), { recursive: true }))
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => path.join('.netlify/build', file));
    expect(chunks.length).toBeGreaterThan(1);
    await importWithoutPackages(chunks);
  });

  it('gives every user function a path or a schedule, and no path and method to two functions', async () => {
    const functions = await userFunctions();
    const claims = new Map<string, string>();
    for (const fn of functions) {
      const hasSchedule = 'schedule' in fn.config && Boolean(fn.config.schedule);
      expect(pathsOf(fn.config).length > 0 || hasSchedule, `${fn.name} has neither path nor schedule`).toBe(true);
      const methods = methodsOf(fn.config);
      for (const pathname of pathsOf(fn.config)) {
        for (const method of methods === 'all' ? ['*'] : methods) {
          for (const other of [`${pathname} ${method}`, `${pathname} *`]) {
            expect(
              claims.get(other),
              `${pathname} ${method} claimed by ${claims.get(other)} and ${fn.name}`,
            ).toBeUndefined();
          }
          if (method === '*') {
            for (const key of claims.keys())
              expect(key.startsWith(`${pathname} `), `${pathname} claimed twice`).toBe(false);
          }
          claims.set(`${pathname} ${method}`, fn.name);
        }
      }
    }
  });

  it('lets no user function shadow a prerendered file', async () => {
    const functionPaths = (await userFunctions()).flatMap((fn) => pathsOf(fn.config));
    const files: string[] = [];
    const walk = async (dir: string, prefix: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
        else files.push(`${prefix}/${entry.name}`.replace(/\/index\.html$/, '/'));
      }
    };
    await walk(path.join(copy, 'dist'), '');
    expect(files).toContain('/docs/openapi.json');
    for (const pathname of functionPaths) {
      const pattern = new URLPattern({ pathname });
      expect(
        files.filter((file) => pattern.test({ pathname: file })),
        pathname,
      ).toEqual([]);
    }
  });

  describe('its SSR function', () => {
    let upstream: FakeQueueTimes;
    let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
    let handler: (request: Request, context: Context) => Promise<Response>;

    beforeAll(async () => {
      upstream = await startFakeQueueTimes();
      blobs = await startLocalBlobs();
      process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
      const module = await import(pathToFileURL(path.join(copy, '.netlify/v1/functions/ssr/ssr.mjs')).href);
      handler = module.default;
    });
    afterAll(async () => {
      delete process.env.WAIT_TIMES_UPSTREAM_URL;
      await upstream.close();
      await blobs.stop();
    });

    const context = { ip: '203.0.113.9', params: {}, waitUntil: () => {} } as unknown as Context;
    const cdnDirectives = (response: Response) =>
      (response.headers.get('netlify-cdn-cache-control') ?? '').split(/,\s*/);

    it('turns the route cache settings into Netlify CDN headers with durable and stale-while-revalidate', async () => {
      const response = await handler(new Request('https://site.example/api/wait-times?park=epcot'), context);
      expect(response.status).toBe(200);
      const directives = cdnDirectives(response);
      expect(directives).toEqual(expect.arrayContaining(['public', 'durable', 'stale-while-revalidate=600']));
      const maxAge = Number(directives.find((d) => d.startsWith('max-age='))?.slice(8));
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(300);
      expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      // Nothing that another cache layer would read instead of Netlify's own header.
      expect(response.headers.get('cdn-cache-control')).toBeNull();
      expect(response.headers.get('last-modified')).toBeNull();
    });

    it.each([
      [
        '/api/wait-times?park=epcot&utm_source=newsletter',
        ['wait-times', 'wait-times:epcot', 'park:epcot'],
        ['stale-while-revalidate=600'],
      ],
      [
        '/api/wait-times/history?park=epcot&fbclid=x',
        ['wait-times-history', 'wait-times-history:epcot', 'park:epcot'],
        ['stale-while-revalidate=600'],
      ],
      ['/api/location?utm_source=x', ['location'], ['max-age=60']],
      ['/api/publish-status', ['publish-status'], ['max-age=60', 'stale-while-revalidate=60']],
      [
        '/api/professional-network-status',
        ['professional-network-status'],
        ['max-age=60', 'stale-while-revalidate=60'],
      ],
      ['/api/recorder-status', ['recorder-status'], ['max-age=60', 'stale-while-revalidate=60']],
      ['/.well-known/api-catalog', ['discovery'], ['max-age=300']],
    ])('keys %s on `park` alone at the CDN and tags it per kind and park', async (url, tags, directives) => {
      const response = await handler(new Request(`https://site.example${url}`), context);
      expect(response.status).toBe(200);
      expect(response.headers.get('netlify-vary')).toBe('query=park');
      const pathname = new URL(url, 'https://site.example').pathname;
      expect(response.headers.get('netlify-cache-tag')?.split(',')).toEqual([...tags, `astro-path:${pathname}`]);
      expect(cdnDirectives(response)).toEqual(expect.arrayContaining(['public', 'durable', ...directives]));
      expect(response.headers.get('etag')).toBeTruthy();
    });

    it('keys a finished day on `park`, `date` and `format` and keeps it a day, at the CDN and in browsers', async () => {
      const at = Date.parse('2026-01-15T15:00:00Z');
      await writeRecord('wait-times', 'day/epcot/2026-01-15', DayRecordSchema, {
        version: 1,
        date: '2026-01-15',
        times: [at],
        rides: { '1': { name: 'Test Track', waits: [60] } },
      });
      const url = 'https://site.example/api/wait-times/days?park=epcot&date=2026-01-15&format=csv&utm_source=x';
      const response = await handler(new Request(url), context);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('netlify-vary')).toBe('query=park|date|format');
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
      expect(cdnDirectives(response)).toEqual(expect.arrayContaining(['public', 'durable', 'max-age=86400']));
      expect(response.headers.get('netlify-cache-tag')?.split(',')).toEqual([
        'wait-times-days',
        'wait-times-days:epcot',
        'park:epcot',
        'astro-path:/api/wait-times/days',
      ]);
      expect(await response.text()).toContain('1,Test Track,01/15/2026,2026-01-15 10:00:00,60,\n');
      const unfinished = await handler(
        new Request('https://site.example/api/wait-times/days?park=epcot&date=2099-01-01'),
        context,
      );
      expect(unfinished.status).toBe(404);
      expect(unfinished.headers.get('cache-control')).toBe('no-store');
      expect(unfinished.headers.get('netlify-vary')).toBe('query=park|date|format');
    });

    it('serves a park feed from the ssr function, keyed on its filters and cached to the recorder period', async () => {
      await writeRecord('wait-times', 'events/epcot', ParkEventsSchema, {
        version: 1,
        events: [
          {
            id: `epcot/park-opened/park/${Date.now() - 60_000}`,
            type: 'park-opened',
            park: 'epcot',
            at: Date.now() - 60_000,
            ride: null,
            waitNow: null,
            forecast: null,
          },
        ],
      });
      for (const [path, type] of [
        ['/api/parks/epcot/events.atom', 'application/atom+xml; charset=utf-8'],
        ['/api/parks/epcot/events', 'application/feed+json; charset=utf-8'],
      ]) {
        const response = await handler(new Request(`https://site.example${path}?type=park-opened&fbclid=x`), context);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('netlify-vary')).toBe('query=ride|type|below');
        expect(response.headers.get('netlify-cache-tag')?.split(',')).toEqual([
          'events',
          'events:epcot',
          'park:epcot',
          `astro-path:${path}`,
        ]);
        const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('netlify-cdn-cache-control') ?? '')?.[1]);
        expect(maxAge).toBeGreaterThan(0);
        expect(maxAge).toBeLessThanOrEqual(360);
        expect(await response.text()).toContain('EPCOT opened');
      }
    });

    it('sends no CDN caching headers or tags on an error, and the same Netlify-Vary as its answers', async () => {
      const response = await handler(new Request('https://site.example/api/wait-times?park=nowhere'), context);
      expect(response.status).toBe(404);
      expect(response.headers.get('netlify-cdn-cache-control')).toBeNull();
      expect(response.headers.get('netlify-cache-tag')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('netlify-vary')).toBe('query=park');
    });
  });
  describe('every answer of every function', () => {
    let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
    beforeAll(async () => {
      blobs = await startLocalBlobs();
    });
    afterAll(() => blobs.stop());

    const json = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const scheduled = { method: 'POST', headers: json, body: '{"next_run":null}' };
    const answers: [string, string, RequestInit][] = [
      ['mcp', 'POST /mcp', { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }],
      ['mcp', 'POST /mcp', { method: 'POST', headers: json, body: '{' }],
      ['mcp', 'GET /mcp', {}],
      ['mcp', 'OPTIONS /mcp', { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }],
      ['location', 'POST /api/location', { method: 'POST', headers: json, body: '{}' }],
      ['contact', 'POST /api/contact', { method: 'POST', headers: json, body: '{}' }],
      ['contact', 'OPTIONS /api/contact', { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST' } }],
      ['alerts', 'POST /api/alerts', { method: 'POST', headers: json, body: '{}' }],
      ['alerts', 'DELETE /api/alerts', { method: 'DELETE' }],
      ...[
        'contact-retry',
        'daily-publish',
        'grade-forecasts',
        'network-share',
        'photo-token-refresh',
        'record-waits',
      ].map((name): [string, string, RequestInit] => [name, `POST /.netlify/functions/${name}`, scheduled]),
      ['ssr', 'GET /api/wait-times?park=nowhere', {}],
      ['ssr', 'GET /nowhere', {}],
    ];
    const handlerOf = async (name: string) => {
      const file = name === 'ssr' ? '.netlify/v1/functions/ssr/ssr.mjs' : `${BUNDLED_FUNCTIONS_DIR}/${name}.mjs`;
      const module = await import(pathToFileURL(path.join(copy, file)).href);
      return module.default as (request: Request, context: Context) => Promise<Response>;
    };

    it('covers every bundled function', async () => {
      const covered = new Set(answers.map(([name]) => name));
      for (const { name } of await userFunctions()) expect(covered, name).toContain(name);
    });

    // Netlify adds nothing to a function's answer: netlify.toml's headers reach static files only.
    it.each(answers)("%s answers %s with the site's base headers", async (name, request, init) => {
      const [, target = ''] = request.split(' ');
      const context = { ip: '203.0.113.10', params: {}, waitUntil: () => {} } as unknown as Context;
      const response = await (await handlerOf(name))(new Request(`https://site.example${target}`, init), context);
      expect(baseHeadersOf(response)).toEqual(BASE_HEADERS);
    });
  });
});
