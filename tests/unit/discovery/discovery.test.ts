import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headersFor, loadHeaderRules } from '../../../server/static-files.mts';
import {
  AGENT_SKILLS_SCHEMA,
  buildSkillsIndex,
  frontmatterOf,
  renderSkill,
  SKILL_NAMES,
} from '../../../src/discovery/agent-skills.ts';
import { API_CATALOG_CONTENT_TYPE, API_CATALOG_LINK, buildApiCatalog } from '../../../src/discovery/api-catalog.ts';
import {
  curlFor,
  type Operation,
  operationsOf,
  paragraphsOf,
  typeLabel,
} from '../../../src/discovery/api-reference.ts';
import { buildOpenApiDocument, openApiOutline } from '../../../src/discovery/openapi-document.ts';
import { BASE_HEADERS } from '../../../src/platform/http.ts';
import { PARKS } from '../../../src/wait-times/parks.ts';

const SITE = 'https://site.example.test';
const DOCUMENT = await buildOpenApiDocument(SITE);
const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('the API catalog (RFC 9727)', () => {
  const minimal = (paths: Record<string, Record<string, unknown>>) => ({
    info: { title: 'site-api', version: '1.0.0' },
    paths,
  });

  it('is the same from the outline the endpoint serves it from as from the whole description', () => {
    expect(buildApiCatalog(SITE, openApiOutline())).toEqual(buildApiCatalog(SITE, DOCUMENT));
  });

  it('AC-7, AC-8: describes the API at /api/ with its OpenAPI description, docs and agent skills, and the MCP endpoint with its docs, as absolute URLs', () => {
    const document = DOCUMENT;
    const catalog = buildApiCatalog(SITE, document);
    // A templated path (`/api/parks/{slug}/events`) is no URL a link can name: the catalog leaves it out.
    const apiPaths = Object.keys(document.paths).filter(
      (pathname) => pathname.startsWith('/api/') && !pathname.includes('{'),
    );
    expect(apiPaths).toContain('/api/wait-times');
    expect(apiPaths).toContain('/api/wait-times/history');
    expect(catalog).toEqual({
      linkset: [
        {
          anchor: `${SITE}/api/`,
          'service-desc': [
            {
              href: `${SITE}/docs/openapi.json`,
              type: 'application/json',
              title: 'OpenAPI 1.7.0 description of site-api',
            },
          ],
          'service-doc': [{ href: `${SITE}/docs/api/`, type: 'text/html', title: 'API reference' }],
          'service-meta': [
            {
              href: `${SITE}/.well-known/agent-skills/index.json`,
              type: 'application/json',
              title: 'Agent Skills index',
            },
            {
              href: `${SITE}/.well-known/oauth-protected-resource`,
              type: 'application/json',
              title: 'Protected resource metadata',
            },
          ],
          // Templated paths (`/api/alerts/{id}`) are no link targets.
          item: apiPaths
            .filter((pathname) => !pathname.includes('{'))
            .map((pathname) => ({ href: `${SITE}${pathname}` })),
          ...(catalog.linkset[0]?.status ? { status: catalog.linkset[0].status } : {}),
        },
        {
          anchor: `${SITE}/mcp`,
          'service-doc': [
            {
              href: `${SITE}/docs/api/#mcp`,
              type: 'text/html',
              title: 'MCP endpoint (Streamable HTTP): tools and how to connect',
            },
          ],
          'service-meta': [
            {
              href: `${SITE}/.well-known/agent-skills/index.json`,
              type: 'application/json',
              title: 'Agent Skills index',
            },
          ],
        },
      ],
    });
  });

  it('links each job health endpoint as status once the OpenAPI description has it, and nothing else', () => {
    const catalog = buildApiCatalog(
      SITE,
      minimal({
        '/api/wait-times': { get: {} },
        '/api/publish-status': { get: {} },
        '/api/items/{id}': { get: {} },
      }),
    );
    const api = catalog.linkset[0];
    expect(api?.status).toEqual([{ href: `${SITE}/api/publish-status`, type: 'application/json' }]);
    // A templated path is not a URL a client can follow.
    expect(api?.item).toEqual([{ href: `${SITE}/api/wait-times` }, { href: `${SITE}/api/publish-status` }]);
    expect(buildApiCatalog(SITE, minimal({})).linkset[0]).not.toHaveProperty('status');
  });

  it('AC-5, AC-6: names the media type with the RFC 9727 profile as a quoted string', () => {
    expect(API_CATALOG_CONTENT_TYPE).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
  });

  it('is linked from every response our helpers build', () => {
    expect(BASE_HEADERS.Link).toBe(API_CATALOG_LINK);
    expect(API_CATALOG_LINK).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });
});

describe('Agent Skills', () => {
  const ALLOWED_FRONTMATTER = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

  it.each(SKILL_NAMES)(
    '%s: has valid frontmatter whose name is its folder and whose description says what and when',
    (name) => {
      const markdown = renderSkill(name, SITE);
      const frontmatter = frontmatterOf(markdown);
      expect(Object.keys(frontmatter).filter((key) => !ALLOWED_FRONTMATTER.includes(key))).toEqual([]);
      expect(frontmatter.name).toBe(name);
      expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(name.length).toBeLessThanOrEqual(64);
      const description = frontmatter.description ?? '';
      expect(description.length).toBeGreaterThan(0);
      expect(description.length).toBeLessThanOrEqual(1024);
      expect(description).toMatch(/\bUse when\b/);
      expect(description).not.toMatch(/[<>]/);
      expect((frontmatter.compatibility ?? '').length).toBeLessThanOrEqual(500);
      expect(markdown.split('\n').length).toBeLessThan(500);
    },
  );

  it('park-wait-times teaches the call, trend and forecast, the credit, the 5-minute cache and GET-only location', () => {
    const markdown = renderSkill('park-wait-times', SITE);
    expect(markdown).toContain(`curl -s '${SITE}/api/wait-times?park=epcot'`);
    for (const park of PARKS) expect(markdown).toContain(`| \`${park.slug}\` | ${park.name} |`);
    expect(markdown).toMatch(/`trend`[\s\S]{0,120}`up`[\s\S]{0,120}`down`[\s\S]{0,120}`flat`/);
    expect(markdown).toMatch(/`forecast`[\s\S]{0,80}in about 30 minutes/);
    expect(markdown).toContain('Powered by Queue-Times.com');
    expect(markdown).toContain('https://queue-times.com/');
    expect(markdown).toMatch(/every 5 minutes/);
    expect(markdown).toContain('If-None-Match');
    expect(markdown).toContain('Use **GET /api/location only**');
    expect(markdown).toContain('Never send\n`POST /api/location`');
    expect(markdown).not.toMatch(/\{\{|\}\}/);
    expect(markdown).not.toContain('\r');
  });

  it('park-wait-times teaches the park hours: where they are, unknown is not closed, the closing time, the credit', () => {
    const markdown = renderSkill('park-wait-times', SITE);
    expect(markdown).toContain(`curl -s '${SITE}/api/parks'`);
    expect(markdown).toMatch(/`hours: null` means \*\*unknown\*\*, never closed/);
    expect(markdown).toMatch(/never\nsuggest a time at or after `hours.closesAt`/);
    expect(markdown).toContain('**Park hours: ThemeParks.wiki**');
    expect(markdown).toMatch(/`when_to_ride\(park, ride\)`\n\(now, [^)]*the closing time\)/);
  });

  it('park-wait-times teaches rides down: the fields, the odds and their limits', () => {
    const markdown = renderSkill('park-wait-times', SITE);
    expect(markdown).toContain('## Is a ride down? Will it reopen soon?');
    expect(markdown).toMatch(/`rides\[\]\.down`: `null` unless the ride is down now/);
    expect(markdown).toMatch(/in the same\npart of the day/);
    expect(markdown).toMatch(/falling back to the pool where the\npark has fewer than 24 outages/);
    expect(markdown).toContain('rounded to 5 %');
    expect(markdown).toContain('treat them as a rough guide');
    expect(markdown).toMatch(/It is\nnot a promise/);
    expect(markdown).toMatch(
      /`reopenWithin` is `null`, say there are too few recorded outages to give odds; never invent a\nfigure/,
    );
  });

  it('shows a real answer in the skill, valid JSON shortened to three rides', () => {
    const markdown = renderSkill('park-wait-times', SITE);
    const json = /```json\n([\s\S]*?)\n```/.exec(markdown)?.[1] ?? '';
    const example = JSON.parse(json) as { source: string; rides: unknown[] };
    expect(example.source).toBe('queue-times.com');
    expect(example.rides).toHaveLength(3);
  });

  it('indexes each skill with the sha256 of the exact bytes rendered for the site', () => {
    const index = buildSkillsIndex(SITE);
    expect(index.$schema).toBe(AGENT_SKILLS_SCHEMA);
    expect(index.skills).toEqual(
      SKILL_NAMES.map((name) => {
        const markdown = renderSkill(name, SITE);
        return {
          name,
          type: 'skill-md',
          description: frontmatterOf(markdown).description,
          url: `${SITE}/.well-known/agent-skills/${name}/SKILL.md`,
          digest: `sha256:${createHash('sha256').update(Buffer.from(markdown, 'utf8')).digest('hex')}`,
        };
      }),
    );
  });

  it('refuses a skill it does not have and a frontmatter it cannot read', () => {
    expect(() => renderSkill('no-such-skill', SITE)).toThrow('no agent skill named no-such-skill');
    expect(() => frontmatterOf('# no frontmatter')).toThrow('must start with a --- frontmatter block');
    expect(() => frontmatterOf('---\nname: x\n  nested: y\n---\n')).toThrow('unsupported frontmatter line');
  });
});

describe('the static headers of netlify.toml', () => {
  /** The rules Netlify's own parser reads from a netlify.toml with this text. */
  const rulesOf = async (toml: string) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'site-api-toml-'));
    try {
      await writeFile(path.join(dir, 'netlify.toml'), toml);
      return await loadHeaderRules(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it.each([
    ['/', { 'X-Content-Type-Options': 'nosniff', Link: API_CATALOG_LINK }],
    [
      '/docs/openapi.json',
      {
        'X-Content-Type-Options': 'nosniff',
        Link: API_CATALOG_LINK,
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'public, max-age=300',
      },
    ],
    [
      '/.well-known/agent-skills/park-wait-times/SKILL.md',
      {
        'X-Content-Type-Options': 'nosniff',
        Link: API_CATALOG_LINK,
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'public, max-age=300',
        'Content-Type': 'text/markdown; charset=utf-8',
      },
    ],
  ])('give %s its headers', async (pathname, expected) => {
    expect(headersFor(await loadHeaderRules(ROOT), pathname)).toEqual(expected);
  });

  it('match what the on-demand responses set in code', async () => {
    expect(headersFor(await loadHeaderRules(ROOT), '/index.html')).toEqual(BASE_HEADERS);
  });

  it("give Astro's hashed assets a year of caching, as the Netlify adapter's config.json does", async () => {
    expect(headersFor(await loadHeaderRules(ROOT), '/_astro/page.Ab12.js')).toEqual({
      ...BASE_HEADERS,
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
  });

  it("are read by Netlify's own parser: any TOML, `:placeholder` and `*` paths, and a rule it rejects fails the start", async () => {
    const toml = [
      '[build]',
      '  command = "ignored"',
      '# a comment',
      '[[headers]]',
      '  for = "/a/:name/b"',
      '  [headers.values]',
      `    Link = '<x>; rel="y"'`,
      '    "X-Quoted" = "a \\"b\\" \\u00e9"',
    ].join('\n');
    const rules = await rulesOf(toml);
    const expected = { Link: '<x>; rel="y"', 'X-Quoted': 'a "b" é' };
    expect(headersFor(rules, '/a/z/b')).toEqual(expected);
    expect(headersFor(rules, '/a/z/c')).toEqual({});
    await expect(rulesOf('[[headers]]\n  for = "/x"\n  [headers.values]\n    A = 1')).rejects.toThrow(
      'value must be a string',
    );
    await expect(rulesOf('[[headers]]\n  [headers.values]\n    A = "b"')).rejects.toThrow('Missing "for" field');
    await expect(rulesOf('[[headers]\n')).rejects.toThrow('Could not parse configuration file');
  });
});

describe('the reference page helpers', () => {
  const document = DOCUMENT;
  const operations = operationsOf(document);

  it('list every operation of the document', () => {
    const expected = Object.entries(document.paths).flatMap(([pathname, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(
          ([method, operation]) =>
            `${method.toUpperCase()} ${pathname} ${(operation as { operationId: string }).operationId}`,
        ),
    );
    expect(expected).toContain('GET /api/wait-times getWaitTimes');
    expect(operations.map((op) => `${op.method} ${op.path} ${op.id}`).sort()).toEqual(expected.sort());
  });

  it('build a curl command from the server URL and the example of each required parameter', () => {
    const waitTimes = operations.find((op) => op.path === '/api/wait-times');
    expect(curlFor(waitTimes as Operation, SITE)).toBe(`curl -s '${SITE}/api/wait-times?park=epcot'`);
  });

  it('build a curl command with the bearer token and the example body for a protected POST', () => {
    const op: Operation = {
      method: 'POST',
      path: '/api/things/{id}',
      id: 'postThing',
      operation: {
        responses: {},
        security: [{ bearerAuth: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', enum: ['a b'] } }],
        requestBody: { content: { 'application/json': { example: { note: "it's" } } } },
      },
    };
    expect(curlFor(op, SITE)).toBe(
      `curl -s -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data '{"note":"it'\\''s"}' '${SITE}/api/things/a%20b'`,
    );
  });

  it.each([
    [{ $ref: '#/components/schemas/Ride' }, 'Ride'],
    [{ type: 'array', items: { $ref: '#/components/schemas/Ride' } }, 'array of Ride'],
    [
      { anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 5 }, { type: 'null' }] },
      'integer (≥ 0, multiple of 5) | null',
    ],
    [{ type: 'string', const: 'queue-times.com' }, '"queue-times.com"'],
    [{ type: 'string', enum: ['up', 'down'] }, 'one of "up", "down"'],
    [{ type: 'string', minLength: 1, maxLength: 100 }, 'string (1–100 characters)'],
    [{ type: 'string', format: 'email', maxLength: 254 }, 'string (at most 254 characters, email)'],
  ])('label %j as %s', (schema, label) => {
    expect(typeLabel(schema)).toBe(label);
  });

  it('split descriptions into text, inline code and links, keeping every character', () => {
    const text = 'Send `If-None-Match`; see https://queue-times.com/. <b>not markup</b>\n\nSecond.';
    const paragraphs = paragraphsOf(text);
    expect(paragraphs).toEqual([
      [
        { kind: 'text', text: 'Send ' },
        { kind: 'code', text: 'If-None-Match' },
        { kind: 'text', text: '; see ' },
        { kind: 'link', text: 'https://queue-times.com/' },
        { kind: 'text', text: '. <b>not markup</b>' },
      ],
      [{ kind: 'text', text: 'Second.' }],
    ]);
  });
});
