import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { ErrorSchema } from '../../../src/platform/error-schemas.ts';
import { upstreamUnavailable } from '../../../src/platform/errors.ts';
import { errorBody } from '../../../src/platform/http.ts';
import { waitTimesExample } from '../../../src/wait-times/live/example.ts';
import { PARK_SLUGS } from '../../../src/wait-times/parks.ts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { type OpenApi, OpenApiValidator, pointer } from '../../support/openapi-validator.ts';

const SITE = 'https://site.example.test';
const document = await buildOpenApiDocument(SITE);
const validator = new OpenApiValidator(document as unknown as OpenApi);
const operations = validator.operations();

/** The responses of GET /api/wait-times. */
const waitTimesResponses = (): Record<string, { headers?: object; content?: object }> =>
  (validator.operations().find(({ operation }) => operation.operationId === 'getWaitTimes')?.operation.responses ??
    {}) as Record<string, { headers?: object; content?: object }>;

/** Every `example` in the document with the pointer of the schema beside it. */
function examplesOf(value: unknown, at: string[] = []): { at: string[]; example: unknown }[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: { at: string[]; example: unknown }[] = [];
  const record = value as Record<string, unknown>;
  if ('example' in record && 'schema' in record) found.push({ at: [...at, 'schema'], example: record.example });
  for (const [key, child] of Object.entries(record)) found.push(...examplesOf(child, [...at, key]));
  return found;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0, version 1.7.0 (push alerts: /api/alerts), served from SITE_URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.7.0');
    expect(document.servers).toEqual([{ url: SITE, description: 'This site' }]);
    expect(document.jsonSchemaDialect).toBe('https://spec.openapis.org/oas/3.1/dialect/base');
  });

  it('describes GET /api/wait-times with its park parameter and every status of the contract', () => {
    const operation = document.paths['/api/wait-times']?.get as Record<string, unknown>;
    expect(operation.parameters).toEqual([expect.objectContaining({ name: 'park', in: 'query', required: true })]);
    expect((operation.parameters as { schema: { enum: string[] } }[])[0]?.schema.enum).toEqual(PARK_SLUGS);
    expect(Object.keys(operation.responses as object).sort()).toEqual(['200', '304', '400', '404', '405', '502']);
  });

  it('gives every operation a unique operationId, a summary and a tag the document defines', () => {
    const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { operation } of operations) {
      expect(operation.summary).toBeTruthy();
      expect(tags).toContain((operation.tags as string[])[0]);
    }
  });

  it('is anonymous by default and defines the bearer scheme for the one protected operation', () => {
    expect(document.security).toEqual([]);
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      ownerTokenAsBasicPassword: expect.objectContaining({ type: 'http', scheme: 'basic' }),
    });
    for (const { method, operation } of operations) {
      if (method === 'get') expect(operation.security ?? document.security).toEqual([]);
    }
  });

  it('links the API catalog from every response of every operation', () => {
    for (const { operation } of operations) {
      for (const response of Object.values(operation.responses)) {
        expect(response.headers?.Link).toEqual({ $ref: '#/components/headers/Link' });
      }
    }
  });

  it('documents Retry-After on the 502, Allow on the 405 and the ETag on the 200 and 304', () => {
    const responses = waitTimesResponses();
    expect(Object.keys(responses['502']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(responses['405']?.headers ?? {})).toContain('Allow');
    expect(Object.keys(responses['200']?.headers ?? {})).toContain('ETag');
    expect(Object.keys(responses['304']?.headers ?? {})).toContain('ETag');
  });

  it('emits only the shared headers its responses use, each resolvable', () => {
    const text = JSON.stringify(document.paths);
    for (const name of Object.keys(document.components.headers as object)) {
      expect(text).toContain(`"#/components/headers/${name}"`);
    }
    for (const [, name] of text.matchAll(/"#\/components\/headers\/([^"]+)"/g)) {
      expect(Object.keys(document.components.headers as object)).toContain(name);
    }
  });

  it('has examples, and each one is valid against the schema beside it', () => {
    const examples = examplesOf(document);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const { at, example } of examples) {
      expect(validator.errorsAt(pointer(...at), example), at.join('/')).toEqual([]);
    }
  });

  it('takes its wait-times example from the real code run on a recorded EPCOT payload', () => {
    const example = waitTimesExample();
    expect(WaitTimesSchema.safeParse(example).success).toBe(true);
    expect(example.rides.length).toBe(19);
    expect(example.rides.map((ride) => ride.name)).toEqual(example.rides.map((ride) => ride.name).sort());
    expect(new Date(example.updatedAt).toISOString()).toBe('2023-11-02T21:40:27.000Z');
    const responses = waitTimesResponses();
    expect(responses['200']).toMatchObject({ content: { 'application/json': { example } } });
  });

  it('takes its error examples from the error classes that answer them', () => {
    const responses = waitTimesResponses();
    expect(responses['400']).toMatchObject({ content: { 'application/json': { example: { error: 'missing park' } } } });
    expect(responses['404']).toMatchObject({ content: { 'application/json': { example: { error: 'unknown park' } } } });
    expect(responses['502']).toMatchObject({
      content: { 'application/json': { example: errorBody(upstreamUnavailable(30)) } },
    });
  });
});

describe('the schemas in the document agree with the zod schemas the code validates with', () => {
  const ride = { id: 159, name: 'Test Track', wait: 60, open: true, trend: 'up', forecast: 55 };
  const body = { updatedAt: 1_698_961_227_000, source: 'queue-times.com', rides: [ride] };
  it.each([
    ['a real answer', body, true],
    ['a closed ride with no forecast', { ...body, rides: [{ ...ride, open: false, wait: 0, forecast: null }] }, true],
    ['no rides', { ...body, rides: [] }, true],
    ['an extra field', { ...body, extra: 1 }, false],
    ['an extra ride field', { ...body, rides: [{ ...ride, extra: 3 }] }, false],
    [
      'a ride without its id',
      { ...body, rides: [{ name: 'Test Track', wait: 60, open: true, trend: 'up', forecast: 55 }] },
      false,
    ],
    ['another source', { ...body, source: 'example.com' }, false],
    ['a forecast off the 5-minute steps', { ...body, rides: [{ ...ride, forecast: 7 }] }, false],
    ['a negative wait', { ...body, rides: [{ ...ride, wait: -5 }] }, false],
    ['a fractional wait', { ...body, rides: [{ ...ride, wait: 2.5 }] }, false],
    ['an unknown trend', { ...body, rides: [{ ...ride, trend: 'sideways' }] }, false],
    ['updatedAt as a string', { ...body, updatedAt: '2023-11-02' }, false],
    ['no rides field', { updatedAt: 1, source: 'queue-times.com' }, false],
  ])('WaitTimes: %s → valid %s', (_, value, valid) => {
    expect(WaitTimesSchema.safeParse(value).success).toBe(valid);
    expect(validator.errorsAt(pointer('components', 'schemas', 'WaitTimes'), value).length === 0).toBe(valid);
  });

  it.each([
    ['an error', { error: 'unknown park' }, true],
    ['an error with issues', { error: 'invalid body', issues: [{ path: 'email', message: 'Invalid email' }] }, true],
    ['no error field', { message: 'x' }, false],
    ['an issue without a path', { error: 'x', issues: [{ message: 'm' }] }, false],
    ['an extra field', { error: 'x', stack: 'at …' }, false],
  ])('Error: %s → valid %s', (_, value, valid) => {
    expect(ErrorSchema.safeParse(value).success).toBe(valid);
    expect(validator.errorsAt(pointer('components', 'schemas', 'Error'), value).length === 0).toBe(valid);
  });
});
