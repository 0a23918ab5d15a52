import { z } from 'zod';
// Importing the schema modules registers their `.meta({ id })` components in z.globalRegistry.
import '../schemas/jobs.ts';
import '../schemas/photo-feed.ts';
import '../schemas/wait-times.ts';
import { jobPaths } from './jobs.ts';
import { photoFeedPaths } from './photo-feed.ts';
import { waitTimesPaths } from './wait-times.ts';

/**
 * The OpenAPI 3.1 description of the whole API, generated from the zod schemas the code
 * validates with, so the two cannot drift. Each area of the API adds its paths file here.
 */
export function buildOpenApiDocument(siteUrl: string): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'site-api',
      version: '1.0.0',
      description:
        'The public JSON API behind a personal website: live theme-park wait times and small utility endpoints. Anonymous; no keys, no registration.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: siteUrl }],
    paths: { ...waitTimesPaths, ...jobPaths, ...photoFeedPaths },
    components: { schemas },
  };
}
