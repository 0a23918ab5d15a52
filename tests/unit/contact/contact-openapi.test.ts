import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parseContactRequest } from '../../../src/contact/contact.ts';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';

type Json = Record<string, unknown>;

const document = (await buildOpenApiDocument('https://site.example')) as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};
const operation = document.paths['/api/contact']?.post as {
  requestBody: { content: Record<string, { schema: Json; example: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: Json; example?: unknown }> }>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// Component references, inside the components too, point at their copies under $defs.
const rebased = (schema: unknown) =>
  JSON.parse(
    JSON.stringify(schema).replaceAll('#/components/schemas/', 'https://site.example/components#/$defs/'),
  ) as Json;
ajv.addSchema(rebased({ $id: 'https://site.example/components', $defs: document.components.schemas }));
const validatorFor = (schema: Json) => ajv.compile(rebased(schema));

describe('the OpenAPI description of POST /api/contact', () => {
  it('lists every status the endpoint answers', () => {
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '202',
      '303',
      '400',
      '403',
      '405',
      '413',
      '415',
      '429',
      '503',
    ]);
  });

  it.each(
    Object.entries(operation.responses).flatMap(([status, response]) =>
      Object.entries(response.content ?? {})
        .filter(([type, media]) => type === 'application/json' && media.example !== undefined)
        .map(([, media]) => [status, media] as const),
    ),
  )('gives a %s example that matches its schema', (_status, media) => {
    const validate = validatorFor(media.schema);
    expect(validate(media.example), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(Object.entries(operation.requestBody.content))(
    'gives a %s request example the schema and the code accept',
    (_type, media) => {
      const validate = validatorFor(media.schema);
      expect(validate(media.example), JSON.stringify(validate.errors)).toBe(true);
      expect(() => parseContactRequest(media.example)).not.toThrow();
    },
  );

  it.each([
    ['a 101-character name', { name: 'x'.repeat(101), email: 'a@example.com', message: 'hi' }],
    ['a blank message', { name: 'Ada', email: 'a@example.com', message: ' ' }],
    ['a missing address', { name: 'Ada', message: 'hi' }],
    ['an address that is not one', { name: 'Ada', email: 'a@', message: 'hi' }],
    ['a 5001-character message', { name: 'Ada', email: 'a@example.com', message: 'x'.repeat(5001) }],
  ])('refuses %s in the schema as the code does', (_case, body) => {
    const validate = validatorFor(operation.requestBody.content['application/json']?.schema ?? {});
    expect(validate(body)).toBe(false);
    expect(() => parseContactRequest(body)).toThrow();
  });

  it('counts characters the way JSON Schema does (code points), like the code', () => {
    const body = { name: '😀'.repeat(100), email: 'a@example.com', message: '😀'.repeat(5000) };
    const validate = validatorFor(operation.requestBody.content['application/json']?.schema ?? {});
    expect(validate(body)).toBe(true);
    expect(() => parseContactRequest(body)).not.toThrow();
  });
});
