import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes, type UpstreamMode } from '../../scripts/fake-queue-times.mts';
import { type OpenApi, OpenApiValidator, pointer } from '../support/openapi-validator.ts';
import { type ServedSite, startServedSite } from '../support/served-site.ts';

/**
 * The contract test: real requests to the built server, every answer checked against
 * /docs/openapi.json as the server itself publishes it. A status the document does not list for
 * the operation, a body that does not match its schema (JSON Schema 2020-12, Ajv), a missing
 * required header or a header value outside its schema fails. So does a documented
 * operation+status that no case below exercises: add a case with every new response.
 */
interface Case {
  /** What the case shows, as a sentence. */
  name: string;
  /** The documented operation the answer belongs to (a 405 belongs to the path's GET). */
  operationId: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** How the fake provider behaves for this case. */
  upstream?: UpstreamMode;
  /** First GET the same URL and send its ETag in `If-None-Match`. */
  conditional?: true;
}

const CASES: Case[] = [
  // GET /api/wait-times
  {
    name: 'answers the rides of a park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epcot',
    status: 200,
  },
  {
    name: 'answers a park whose recording has rides at top level too',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epsilonpark',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epcot',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses a missing park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times',
    status: 400,
  },
  {
    name: 'refuses an empty park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=',
    status: 400,
  },
  {
    name: 'does not know a park that is not in the table',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=atlantis',
    status: 404,
  },
  {
    name: 'refuses DELETE on the wait times',
    operationId: 'getWaitTimes',
    method: 'DELETE',
    url: '/api/wait-times?park=epcot',
    status: 405,
  },
  {
    name: 'refuses POST on the wait times',
    operationId: 'getWaitTimes',
    method: 'POST',
    url: '/api/wait-times?park=epcot',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    status: 405,
  },
  {
    name: 'answers 502 when the provider fails and nothing was fetched before',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=zetawood',
    upstream: 'error-500',
    status: 502,
  },
  {
    name: 'answers 502 when the provider sends garbage and nothing was fetched before',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=volcano-bay',
    upstream: 'html-error',
    status: 502,
  },
];

const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

let site: ServedSite;
let upstream: FakeQueueTimes;
let validator: OpenApiValidator;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url } });
  const response = await fetch(`${site.url}/docs/openapi.json`);
  validator = new OpenApiValidator((await response.json()) as OpenApi);
});

afterAll(async () => {
  await site?.stop();
  await upstream?.close();
});

async function send(c: Case, method = c.method): Promise<Response> {
  const headers = new Headers(c.headers);
  if (c.conditional) {
    const first = await fetch(`${site.url}${c.url}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    if (!etag) throw new Error(`${c.url} sent no ETag to make a conditional request with`);
    headers.set('If-None-Match', etag);
  }
  upstream.mode = c.upstream ?? 'ok';
  try {
    return await fetch(`${site.url}${c.url}`, { method, headers, body: c.body ?? null });
  } finally {
    upstream.mode = 'ok';
  }
}

/** Every way `response` departs from what the document says for `c`. */
async function contractProblems(c: Case, response: Response, body: string): Promise<string[]> {
  const found = validator.operations().find(({ operation }) => operation.operationId === c.operationId);
  if (!found) return [`no operation ${c.operationId} in the document`];
  const { path, method, operation } = found;
  const status = String(response.status);
  const documented = operation.responses[status];
  const at = pointer('paths', path, method, 'responses', status);
  if (!documented) return [`status ${status} is not documented for ${c.operationId}`];
  const problems: string[] = [];

  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const { required, at: schemaAt } = validator.header(header, `${at}/headers/${name.replaceAll('/', '~1')}`);
    const value = response.headers.get(name);
    if (value === null) {
      if (required) problems.push(`required header ${name} is missing`);
      continue;
    }
    const schema = validator.document.components.headers?.[name] as { schema?: { type?: string } } | undefined;
    const typed = ['integer', 'number'].includes(schema?.schema?.type ?? '') && /^-?\d+(\.\d+)?$/.test(value);
    for (const error of validator.errorsAt(schemaAt, typed ? Number(value) : value)) {
      problems.push(`header ${name}: ${JSON.stringify(value)} ${error}`);
    }
  }

  if (!documented.content) {
    if (body !== '') problems.push(`no body is documented, got ${JSON.stringify(body.slice(0, 80))}`);
    return problems;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const content = documented.content[mediaType];
  if (!content) {
    problems.push(`content type ${mediaType || '(none)'} is not documented (${Object.keys(documented.content)})`);
    return problems;
  }
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return [...problems, `body is not JSON: ${JSON.stringify(body.slice(0, 80))}`];
    }
    const schemaAt = `${at}/content/${mediaType.replaceAll('/', '~1')}/schema`;
    problems.push(...validator.errorsAt(schemaAt, json).map((error) => `body ${error}`));
  }
  return problems;
}

describe('every response matches /docs/openapi.json', () => {
  it.each(CASES)('$method $url $name ($status)', async (c) => {
    const response = await send(c);
    const body = await response.text();
    expect(response.status, body).toBe(c.status);
    expect(await contractProblems(c, response, body)).toEqual([]);
  });

  it.each(CASES.filter((c) => c.method === 'GET'))(
    'HEAD $url answers like GET, without a body ($status)',
    async (c) => {
      const get = await send(c);
      await get.arrayBuffer();
      const head = await send(c, 'HEAD');
      expect(head.status).toBe(get.status);
      expect(await head.text()).toBe('');
      // Retry-After counts down between the two requests: it must be there, not equal. X-Astro-Cache
      // is the local route cache's debug note (GET only).
      const skipped = [
        'x-astro-cache',
        'date',
        'content-length',
        'transfer-encoding',
        'connection',
        'keep-alive',
        'retry-after',
      ];
      const comparable = (headers: Headers) =>
        Object.fromEntries([...headers].filter(([name]) => !skipped.includes(name)));
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect(head.headers.has('retry-after')).toBe(get.headers.has('retry-after'));
    },
  );

  it('has a case for every operation and status the document lists', () => {
    const covered = new Set(CASES.map((c) => `${c.operationId} ${c.status}`));
    const documented = validator
      .operations()
      .flatMap(({ operation }) =>
        Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`),
      );
    expect(documented.filter((entry) => !covered.has(entry))).toEqual([]);
  });

  it('refers only to operations the document has, each with a unique operationId', () => {
    const ids = validator.operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(CASES.map((c) => c.operationId).filter((id) => !ids.includes(id))).toEqual([]);
    expect(
      validator.operations().filter(({ method }) => !HTTP_METHODS.includes(method)),
      'operations under unknown keys',
    ).toEqual([]);
  });
});
