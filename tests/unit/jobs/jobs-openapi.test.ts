import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { NetworkStatusSchema, PublishStatusSchema, RecorderStatusSchema } from '../../../src/jobs/jobs-schemas.ts';
import { PhotoFeedSchema } from '../../../src/photo-feed/photo-feed-schemas.ts';
import * as z from '../../../src/platform/zod-mini.ts';

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: { $ref: string }; example?: unknown }> }>;
};

const document = (await buildOpenApiDocument('https://example.com')) as unknown as {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, unknown> };
};

describe('the OpenAPI description of the job status and photo feed endpoints', () => {
  it.each([
    ['/api/publish-status', PublishStatusSchema],
    ['/api/professional-network-status', NetworkStatusSchema],
    ['/api/recorder-status', RecorderStatusSchema],
    ['/api/photo-feed', PhotoFeedSchema],
  ])('describes %s with an example its schema accepts', (path, schema) => {
    const ok = document.paths[path]?.get.responses['200']?.content?.['application/json'];
    expect(ok?.schema.$ref).toBe(`#/components/schemas/${z.globalRegistry.get(schema)?.id}`);
    expect(schema.parse(ok?.example)).toEqual(ok?.example);
  });

  it('refers only to schemas it defines', () => {
    for (const path of [
      '/api/publish-status',
      '/api/professional-network-status',
      '/api/recorder-status',
      '/api/photo-feed',
    ]) {
      const refs = JSON.stringify(document.paths[path]).match(/#\/components\/schemas\/\w+/g) ?? [];
      for (const ref of refs) expect(document.components.schemas).toHaveProperty(ref.split('/').at(-1) as string);
    }
  });

  it('keeps the brand out of the public names', () => {
    const names = Object.keys(document.components.schemas).join(' ');
    expect(names).not.toMatch(/linkedin|instagram/i);
  });
});
