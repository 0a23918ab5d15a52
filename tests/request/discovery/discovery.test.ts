import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { headersFor, loadHeaderRules, staticFiles } from '../../../server/static-files.mts';
import { parseCacheControl, parseCsp, parseLinkHeader, parseMediaType } from '../../support/http-headers.ts';
import { BUILT_SITE_URL, ROOT, type ServedSite, startServedSite } from '../../support/served-site.ts';

/**
 * The discovery documents as a client finds them on the built server: the RFC 9727 API catalog
 * (AC-n: the RFC 9727 requirements, LS-n: the Linkset JSON rules of RFC 9264 §4.2, numbered in docs/discovery.md), the Agent Skills index and skill, the
 * catalog `Link` on pages and API responses, and the headers of static files and HTML pages.
 */
const SITE_URL = BUILT_SITE_URL;
const RFC9727_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
const SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

let site: ServedSite;
let upstream: FakeQueueTimes;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  // The served site runs with the SITE_URL of its build (it refuses any other): on-demand and
  // prerendered documents alike name it.
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url, SITE_URL } });
});

afterAll(async () => {
  await site?.stop();
  await upstream?.close();
});

const get = (pathname: string, init?: RequestInit) => fetch(`${site.url}${pathname}`, init);

/** The site path of an absolute URL built from a SITE_URL, to fetch it from the test server. */
const localPath = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

type LinkTarget = { href: string; type?: string; title?: string } & Record<string, unknown>;
type Catalog = { linkset: ({ anchor: string } & Record<string, LinkTarget[] | string>)[] };

describe('the API catalog, /.well-known/api-catalog (RFC 9727)', () => {
  it('AC-1, AC-4, AC-5, AC-6: answers GET with Linkset JSON and the RFC 9727 profile, quoted', async () => {
    const response = await get('/.well-known/api-catalog');
    expect(response.status).toBe(200);
    const type = parseMediaType(response.headers.get('content-type'));
    expect(type.essence).toBe('application/linkset+json');
    expect(type.params.profile).toBe(RFC9727_PROFILE);
    expect(type.raw.profile).toBe(`"${RFC9727_PROFILE}"`);
    expect(await response.json()).toHaveProperty('linkset');
  });

  it('AC-2, AC-3: answers HEAD with the headers of GET, the api-catalog Link among them, and no body', async () => {
    const [getResponse, head] = await Promise.all([
      get('/.well-known/api-catalog'),
      get('/.well-known/api-catalog', { method: 'HEAD' }),
    ]);
    await getResponse.arrayBuffer();
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'link', 'cache-control', 'access-control-allow-origin', 'etag']) {
      expect(head.headers.get(name), name).toBe(getResponse.headers.get(name));
    }
    const links = parseLinkHeader(head.headers.get('link'), head.url);
    const catalog = links.find((link) => link.rels.includes('api-catalog'));
    expect(catalog?.href).toBe(`${SITE_URL}/.well-known/api-catalog`);
  });

  it('LS-1 to LS-7: is a linkset of absolute links, each relation an array of targets with an href', async () => {
    const catalog = (await (await get('/.well-known/api-catalog')).json()) as Catalog;
    expect(Object.keys(catalog)).toEqual(['linkset']);
    expect(Array.isArray(catalog.linkset)).toBe(true);
    expect(catalog.linkset.length).toBeGreaterThan(0);
    for (const context of catalog.linkset) {
      expect(new URL(context.anchor).href).toBe(context.anchor);
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === 'anchor') continue;
        expect(Array.isArray(targets), relation).toBe(true);
        for (const target of targets as LinkTarget[]) {
          expect(target.href.startsWith(`${SITE_URL}/`), `${relation} ${target.href}`).toBe(true);
          for (const attribute of ['type', 'title'] as const) {
            if (attribute in target) expect(typeof target[attribute]).toBe('string');
          }
        }
      }
    }
  });

  it('AC-7, AC-8: links the API, its OpenAPI description, its documentation and the agent skills index, all served', async () => {
    const catalog = (await (await get('/.well-known/api-catalog')).json()) as Catalog;
    const api = catalog.linkset.find((context) => context.anchor === `${SITE_URL}/api/`);
    expect(api).toBeDefined();
    const targets = (relation: string) => (api?.[relation] ?? []) as LinkTarget[];
    const expected: [string, string, string][] = [
      ['service-desc', '/docs/openapi.json', 'application/json'],
      ['service-doc', '/docs/api/', 'text/html'],
      ['service-meta', '/.well-known/agent-skills/index.json', 'application/json'],
    ];
    for (const [relation, pathname, type] of expected) {
      const target = targets(relation).find((candidate) => candidate.href === `${SITE_URL}${pathname}`);
      expect(target, relation).toBeDefined();
      expect(target?.type).toBe(type);
      const response = await get(pathname);
      await response.arrayBuffer();
      expect(response.status, pathname).toBe(200);
      expect(parseMediaType(response.headers.get('content-type')).essence).toBe(type);
    }
  });

  it('lists every /api/ endpoint of the OpenAPI description without a template as an item, and as status only documented job endpoints', async () => {
    const catalog = (await (await get('/.well-known/api-catalog')).json()) as Catalog;
    const document = (await (await get('/docs/openapi.json')).json()) as { paths: Record<string, object> };
    const api = catalog.linkset[0] as Catalog['linkset'][number];
    const items = ((api.item ?? []) as LinkTarget[]).map((target) => localPath(target.href));
    expect(items.sort()).toEqual(
      Object.keys(document.paths)
        // A link's target is a URI (RFC 8288), not a template: templated paths are reached from the document.
        .filter((p) => p.startsWith('/api/') && !p.includes('{'))
        .sort(),
    );
    for (const target of (api.status ?? []) as LinkTarget[]) {
      expect(Object.keys(document.paths)).toContain(localPath(target.href));
    }
  });

  it('AC-9: answers Linkset JSON to a client that asks for it', async () => {
    const response = await get('/.well-known/api-catalog', { headers: { Accept: 'application/linkset+json' } });
    expect(response.status).toBe(200);
    expect(parseMediaType(response.headers.get('content-type')).essence).toBe('application/linkset+json');
  });

  it('AC-12: may be cached, is readable from any origin and answers If-None-Match with 304', async () => {
    const response = await get('/.well-known/api-catalog');
    await response.arrayBuffer();
    const cacheControl = parseCacheControl(response.headers.get('cache-control'));
    expect(cacheControl.has('public')).toBe(true);
    expect(Number(cacheControl.get('max-age'))).toBeGreaterThan(0);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const etag = response.headers.get('etag') ?? '';
    const again = await get('/.well-known/api-catalog', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it.each(['PUT', 'POST', 'DELETE', 'PATCH'])('AC-13: is read-only: %s is 405 with Allow', async (method) => {
    const response = await get('/.well-known/api-catalog', { method });
    expect(response.status).toBe(405);
    expect(
      response.headers
        .get('allow')
        ?.split(',')
        .map((m) => m.trim()),
    ).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(await response.json()).toEqual({ error: 'method not allowed' });
  });

  it('AC-10: lives at exactly /.well-known/api-catalog', async () => {
    const response = await get('/.well-known/api-catalog.json');
    await response.arrayBuffer();
    expect(response.status).toBe(404);
  });
});

type SkillsIndex = {
  $schema: string;
  skills: { name: string; type: string; description: string; url: string; digest: string }[];
};

describe('Agent Skills discovery 0.2.0, /.well-known/agent-skills/', () => {
  it('serves an index with $schema and, per skill, name, type, description, url and digest', async () => {
    const response = await get('/.well-known/agent-skills/index.json');
    expect(response.status).toBe(200);
    expect(parseMediaType(response.headers.get('content-type')).essence).toBe('application/json');
    const index = (await response.json()) as SkillsIndex;
    expect(index.$schema).toBe(SKILLS_SCHEMA);
    expect(index.skills.map((skill) => skill.name)).toEqual(['park-wait-times']);
    for (const skill of index.skills) {
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.name.length).toBeLessThanOrEqual(64);
      expect(skill.type).toBe('skill-md');
      expect(skill.description.length).toBeGreaterThan(0);
      expect(skill.description.length).toBeLessThanOrEqual(1024);
      expect(skill.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(new URL(skill.url).pathname).toBe(`/.well-known/agent-skills/${skill.name}/SKILL.md`);
    }
  });

  it('lists each skill with the sha256 of the bytes actually served, and the description of its frontmatter', async () => {
    const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as SkillsIndex;
    for (const skill of index.skills) {
      const response = await get(localPath(skill.url));
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(skill.digest);
      const text = bytes.toString('utf8');
      expect(text.charCodeAt(0), 'no byte-order mark').not.toBe(0xfeff);
      expect(text).not.toContain('\r');
      const description = /^---\n[\s\S]*?^description: (.*)$/m.exec(text)?.[1];
      expect(description).toBe(skill.description);
    }
  });

  it.each([
    ['/.well-known/agent-skills/index.json', 'application/json'],
    ['/.well-known/agent-skills/park-wait-times/SKILL.md', 'text/markdown'],
  ])('serves %s as %s to GET and HEAD, cacheable and readable from any origin', async (pathname, type) => {
    for (const method of ['GET', 'HEAD']) {
      const response = await get(pathname, { method });
      const body = await response.text();
      expect(response.status).toBe(200);
      if (method === 'HEAD') expect(body).toBe('');
      else expect(body.length).toBeGreaterThan(0);
      const mediaType = parseMediaType(response.headers.get('content-type'));
      expect(mediaType.essence).toBe(type);
      expect(mediaType.params.charset?.toLowerCase()).toBe('utf-8');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(Number(parseCacheControl(response.headers.get('cache-control')).get('max-age'))).toBeGreaterThan(0);
    }
  });

  it('answers 404 for a skill it does not have', async () => {
    const response = await get('/.well-known/agent-skills/no-such-skill/SKILL.md');
    await response.arrayBuffer();
    expect(response.status).toBe(404);
  });
});

describe('the api-catalog Link on pages and API responses (RFC 9727 §3)', () => {
  it.each([
    '/',
    '/docs/api/',
    '/docs/openapi.json',
    '/.well-known/agent-skills/index.json',
    '/.well-known/agent-skills/park-wait-times/SKILL.md',
    '/api/wait-times?park=epcot',
    '/api/wait-times?park=atlantis',
    '/api/no-such-endpoint',
    '/no-such-page',
  ])('%s links the API catalog', async (pathname) => {
    const response = await get(pathname);
    await response.arrayBuffer();
    const links = parseLinkHeader(response.headers.get('link'), response.url);
    expect(
      links.filter((link) => link.rels.includes('api-catalog')).map((link) => new URL(link.href).pathname),
    ).toEqual(['/.well-known/api-catalog']);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('HTML pages', () => {
  it.each(['/', '/docs/api/', '/docs/api', '/no-such-page'])(
    '%s carries a Content-Security-Policy header that allows no inline code it did not hash',
    async (pathname) => {
      const response = await get(pathname);
      const html = await response.text();
      expect(parseMediaType(response.headers.get('content-type')).essence).toBe('text/html');
      const csp = parseCsp(response.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      for (const directive of ['script-src', 'style-src']) {
        expect(csp.get(directive), directive).toBeDefined();
        expect(csp.get(directive)).not.toContain("'unsafe-inline'");
      }
      // Every inline script and style of the page is allowed by its hash, so the CSP breaks nothing.
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      for (const [, tag, code] of html.matchAll(/<(script|style)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g)) {
        if (!code) continue;
        expect(csp.get(`${tag}-src`), `${tag} ${code.slice(0, 40)}`).toContain(hash(code));
      }
    },
  );
});

describe('static files', () => {
  it('get the headers netlify.toml gives them on Netlify, from the local runtime too', async () => {
    const rules = await loadHeaderRules(ROOT);
    const paths = [...staticFiles(path.join(ROOT, 'dist/client')).keys()].filter(
      (pathname) => !pathname.startsWith('/_astro/'),
    );
    expect(paths).toContain('/docs/api/');
    for (const pathname of paths) {
      const expected = headersFor(rules, pathname);
      expect(Object.keys(expected).length, pathname).toBeGreaterThan(0);
      const response = await get(pathname);
      await response.arrayBuffer();
      for (const [name, value] of Object.entries(expected)) {
        expect(response.headers.get(name), `${pathname} ${name}`).toBe(value);
      }
    }
  });

  it('are never given one header by two rules (how Netlify would combine them is not documented)', async () => {
    const rules = await loadHeaderRules(ROOT);
    for (const pathname of staticFiles(path.join(ROOT, 'dist/client')).keys()) {
      const names = rules
        .filter((rule) => rule.forRegExp.test(pathname))
        .flatMap((rule) => Object.keys(rule.values).map((name) => name.toLowerCase()));
      expect(names.length, pathname).toBe(new Set(names).size);
    }
  });
});
