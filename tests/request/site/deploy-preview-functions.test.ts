import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Context } from '@netlify/functions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleModules, FUNCTION_SOURCES_DIR } from '../../../scripts/bundle-functions.mts';
import { PlainLocationUpdateSchema } from '../../../src/location/location-schemas.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { ROOT } from '../../support/served-site.ts';

/**
 * The two POST functions bundled as a Netlify build bundles them (scripts/bundle-functions.mts), run
 * without SITE_URL. At run time Netlify gives a function `URL` (production's address) but not a
 * deploy preview's `DEPLOY_PRIME_URL`, so each bundle carries the origin its build resolved, as the
 * pages of the same deploy do: a preview's functions name the preview, production's name `URL`.
 */
const PRODUCTION = 'https://site.netlify.app';
const PREVIEW = 'https://deploy-preview-7--site.netlify.app';
const BRANCH = 'https://staging--site.netlify.app';
/** A deploy's permalink: it reaches the deploy, but is not the address its pages name. */
const PERMALINK = 'https://65a1b2c3d4e5f6a7b8c9d0e1--site.netlify.app';
const TOKEN = 'owner-token-0123456789abcdef';
const METADATA = '/.well-known/oauth-protected-resource';
const ENV = { URL: PRODUCTION, SITE_ID: 'site-id', SITE_NAME: 'site', LOCATION_TOKEN: TOKEN };
const ENV_KEYS = [
  ...Object.keys(ENV),
  'SITE_URL',
  'SMTP_URL',
  'NETLIFY',
  'NETLIFY_LOCAL',
  'CONTEXT',
  'DEPLOY_PRIME_URL',
];

const run = promisify(execFile);

type Handler = (request: Request, context: Context) => Promise<Response>;
interface Bundle {
  location: Handler;
  contact: Handler;
}

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let out: string;
let saved: Record<string, string | undefined>;
let clients = 0;
const bundles = new Map<string, string>();

beforeAll(async () => {
  blobs = await startLocalBlobs();
  out = await mkdtemp(path.join(tmpdir(), 'site-api-bundled-functions-'));
  for (const site of [PRODUCTION, PREVIEW, BRANCH]) {
    const dir = path.join(out, new URL(site).hostname);
    const sources = ['location.mts', 'contact.mts'].map((file) => path.join(FUNCTION_SOURCES_DIR, file));
    await bundleModules(ROOT, sources, dir, site);
    bundles.set(site, dir);
  }
});
afterAll(async () => {
  await blobs.stop();
  await rm(out, { recursive: true, force: true });
});
beforeEach(() => {
  saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, ENV);
});
afterEach(() => {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

/** A fresh instance of the functions bundled for `site` (a new module, so config is read anew). */
async function functionsBuiltFor(site: string): Promise<Bundle> {
  const load = async (name: string) => {
    const file = pathToFileURL(path.join(bundles.get(site) ?? '', `${name}.mjs`));
    file.search = `instance=${++clients}`;
    return ((await import(file.href)) as { default: Handler }).default;
  };
  return { location: await load('location'), contact: await load('contact') };
}

/** What Netlify passes a function for a request to `url`. */
function contextFor(url: string): Context {
  return {
    ip: `198.51.100.${++clients % 250}`,
    url: new URL(url),
    params: {},
    waitUntil: () => {},
  } as unknown as Context;
}

const call = (handler: Handler, url: string, init: RequestInit) => handler(new Request(url, init), contextFor(url));

const deploys = [
  { deploy: 'a deploy preview', site: PREVIEW, reached: PREVIEW },
  { deploy: 'a branch deploy', site: BRANCH, reached: BRANCH },
  { deploy: 'production', site: PRODUCTION, reached: PRODUCTION },
  { deploy: 'a deploy preview reached at its permalink', site: PREVIEW, reached: PERMALINK },
  { deploy: 'production reached at its permalink', site: PRODUCTION, reached: PERMALINK },
];

describe.each(deploys)('the functions of $deploy, without SITE_URL', ({ site, reached }) => {
  it("challenge a location POST without a token with the metadata at the deploy's own address", async () => {
    const { location } = await functionsBuiltFor(site);
    const response = await call(location, `${reached}/api/location`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"lat":1,"lon":2}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${site}${METADATA}"`);
  });

  it("allow the deploy's own pages, and only them, to read contact answers", async () => {
    const { contact } = await functionsBuiltFor(site);
    const preflight = await call(contact, `${reached}/api/contact`, {
      method: 'OPTIONS',
      headers: { Origin: site, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(site);
    const invalid = await call(contact, `${reached}/api/contact`, {
      method: 'POST',
      headers: { Origin: site, 'Content-Type': 'application/json' },
      body: '{"name":""}',
    });
    expect([invalid.status, invalid.headers.get('access-control-allow-origin')]).toEqual([400, site]);
    const foreign = site === PRODUCTION ? PREVIEW : PRODUCTION;
    const refused = await call(contact, `${reached}/api/contact`, {
      method: 'POST',
      headers: { Origin: foreign, 'Content-Type': 'application/json' },
      body: '{"name":""}',
    });
    expect(refused.status).toBe(403);
  });

  it("send a visitor of the no-script form back to the deploy's own site", async () => {
    const { contact } = await functionsBuiltFor(site);
    const page = await call(contact, `${reached}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: 'name=&email=&message=',
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`${site}/`);
    for (const other of [PRODUCTION, PREVIEW, BRANCH].filter((origin) => origin !== site)) {
      expect(html).not.toContain(other);
    }
  });
});

describe('SITE_URL set at run time', () => {
  it('wins over the origin a deploy preview was built for', async () => {
    process.env.SITE_URL = 'https://www.example.org';
    const { location } = await functionsBuiltFor(PREVIEW);
    const response = await call(location, `${PREVIEW}/api/location`, { method: 'POST', body: '{}' });
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="https://www.example.org${METADATA}"`,
    );
  });
});

describe('the bundled location function', () => {
  // Its bundle carries only zod's mini API (src/platform/zod-mini.ts), which has no messages of its
  // own; zod keeps its settings on globalThis, so this runs in a process where nothing else set them.
  it('names what is wrong with an update in the words the schema gives everywhere else', async () => {
    const update = { lat: 1, lon: 2, label: 'x'.repeat(101) };
    const program = `
      const { default: location } = await import(${JSON.stringify(pathToFileURL(path.join(bundles.get(PRODUCTION) ?? '', 'location.mjs')).href)});
      const request = new Request('${PRODUCTION}/api/location', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ${TOKEN}' },
        body: ${JSON.stringify(JSON.stringify(update))},
      });
      const response = await location(request, { ip: '198.51.100.1', params: {}, waitUntil: () => {} });
      console.log(JSON.stringify({ status: response.status, body: await response.json() }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', program], { env: process.env });
    const expected = PlainLocationUpdateSchema.safeParse(update).error?.issues[0]?.message;
    expect(expected).toMatch(/^Too big/);
    expect(JSON.parse(stdout)).toEqual({
      status: 400,
      body: { error: 'invalid location update', issues: [{ path: 'label', message: expected }] },
    });
  });
});
