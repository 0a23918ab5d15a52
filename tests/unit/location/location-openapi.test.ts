import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { locationFixture } from '../../support/location-fixtures.ts';

const SITE = 'https://site.example';
const document = (await buildOpenApiDocument(SITE)) as unknown as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'https://site.example/openapi.json', ...document });
const schemaAt = (pointer: string) => ajv.compile({ $ref: `https://site.example/openapi.json#${pointer}` });

const post = document.paths['/api/location']?.post as {
  security: unknown;
  requestBody: { content: Record<string, { schema: { oneOf: unknown[] } }> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
};
const requestBody = schemaAt('/paths/~1api~1location/post/requestBody/content/application~1json/schema');
const each = (id: string) => schemaAt(`/components/schemas/${id}`);

describe('the OpenAPI description of /api/location', () => {
  it('lets only POST ask for credentials: Bearer, or Basic with the token as password', () => {
    expect(document.security).toEqual([]);
    expect(document.paths['/api/location']?.get?.security ?? []).toEqual([]);
    expect(post.security).toEqual([{ bearerAuth: [] }, { ownerTokenAsBasicPassword: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      ownerTokenAsBasicPassword: { type: 'http', scheme: 'basic' },
    });
  });

  it('documents every status POST answers, with the 401 challenge header', () => {
    expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '401', '413', '415', '429', '503']);
    expect(post.responses['401']?.headers).toHaveProperty('WWW-Authenticate');
    expect(post.responses['429']?.headers).toHaveProperty('Retry-After');
  });

  // Each real body matches exactly one of the three formats (oneOf), so the description is true.
  it.each([
    ['location-owntracks-1.json', 'OwnTracksMessage'],
    ['location-owntracks-3.json', 'OwnTracksMessage'],
    ['location-owntracks-4.json', 'OwnTracksMessage'],
    ['location-owntracks-5.json', 'OwnTracksMessage'],
    ['location-owntracks-6.json', 'OwnTracksMessage'],
    ['location-owntracks-7.json', 'OwnTracksMessage'],
    ['location-owntracks-8.json', 'OwnTracksMessage'],
    ['location-owntracks-10.json', 'OwnTracksMessage'],
    ['location-overland-1.json', 'OverlandBatch'],
    ['location-gpslogger-1.json', 'PlainLocationUpdate'],
    ['location-shortcuts-1.json', 'PlainLocationUpdate'],
  ])('describes %s as one %s', (name, id) => {
    const body = locationFixture(name);
    expect(requestBody(body), JSON.stringify(requestBody.errors)).toBe(true);
    expect(each(id)(body)).toBe(true);
  });

  it.each([
    ['location-owntracks-response-1.json', 'OwnTracksResponse'],
    ['location-owntracks-response-2.json', 'OwnTracksResponse'],
    ['location-overland-response-1.json', 'OverlandResponse'],
  ])('describes the answer %s as %s', (name, id) => {
    expect(each(id)(locationFixture(name))).toBe(true);
  });

  it.each([
    [{ status: 'live', lat: 48.86, lon: 2.29, updatedAt: '2024-02-02T07:15:49.000Z' }, true],
    [{ status: 'live', lat: 48.86, lon: 2.29, updatedAt: '2024-02-02T07:15:49.000Z', label: 'Paris' }, true],
    [{ status: 'stale', updatedAt: null }, true],
    [{ status: 'stale', updatedAt: '2024-02-02T07:15:49.000Z' }, true],
    // Nothing else may ever appear in the public answer.
    [{ status: 'live', lat: 48.86, lon: 2.29, updatedAt: '2024-02-02T07:15:49.000Z', acc: 5 }, false],
    [{ status: 'stale', updatedAt: null, lat: 1 }, false],
    [{ status: 'live', lat: 48.86, lon: 2.29 }, false],
  ])('the Location schema takes %j: %s', (body, valid) => {
    expect(each('Location')(body)).toBe(valid);
  });

  it('describes the protected resource metadata without an authorization server', () => {
    const metadata = {
      resource: SITE,
      bearer_methods_supported: ['header'],
      resource_name: 'x',
      resource_documentation: `${SITE}/docs/api/`,
    };
    expect(each('ProtectedResourceMetadata')(metadata)).toBe(true);
    expect(each('ProtectedResourceMetadata')({ ...metadata, authorization_servers: [] })).toBe(false);
  });
});
