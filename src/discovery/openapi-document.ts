import * as z from '../platform/zod-mini.ts';
import { DOCS_PATH } from './api-catalog.ts';
// Importing the schema modules registers their `z.meta({ id })` components in z.globalRegistry.
import '../alerts/alert-schemas.ts';
import '../contact/contact-schemas.ts';
import '../platform/error-schemas.ts';
import '../jobs/jobs-schemas.ts';
import '../photo-feed/photo-feed-schemas.ts';
import '../location/location-schemas.ts';
import '../wait-times/wait-times-schemas.ts';
import '../wait-times/hours/park-hours-schemas.ts';
import '../wait-times/accuracy/accuracy-schemas.ts';
import '../wait-times/accuracy/park-days-schemas.ts';
import '../wait-times/events/event-feed-schemas.ts';
import { alertsPaths } from '../alerts/alerts-openapi.ts';
import { contactPaths } from '../contact/contact-openapi.ts';
import { jobPaths } from '../jobs/jobs-openapi.ts';
import { locationPaths } from '../location/location-openapi.ts';
import { photoFeedPaths } from '../photo-feed/photo-feed-openapi.ts';
import {
  ANONYMOUS,
  HEADERS,
  headerRefs,
  type JsonObject,
  SECURITY_SCHEMES,
  TAGS,
} from '../platform/openapi-vocabulary.ts';
import { accuracyExample } from '../wait-times/accuracy/accuracy-example.ts';
import { accuracyPaths } from '../wait-times/accuracy/accuracy-openapi.ts';
import type { Accuracy } from '../wait-times/accuracy/accuracy-schemas.ts';
import { parkDayExample, parkDaysPaths } from '../wait-times/accuracy/park-days-openapi.ts';
import type { ParkDay } from '../wait-times/accuracy/park-days-schemas.ts';
import { waitHistoryExample } from '../wait-times/day/history-example.ts';
import { waitHistoryPaths } from '../wait-times/day/history-openapi.ts';
import type { WaitHistory } from '../wait-times/day/history-schemas.ts';
import { eventFeedExample, eventFeedPaths } from '../wait-times/events/event-openapi.ts';
import { parkHoursPaths } from '../wait-times/hours/park-hours-openapi.ts';
import { waitTimesPaths } from '../wait-times/live/live-waits-openapi.ts';

/** Every area's paths; each area of the API adds its paths file here. */
const pathsOf = (examples?: {
  history: WaitHistory;
  accuracy: Accuracy;
  days: { json: ParkDay; csv: string };
  events: { json: unknown; atom: string };
}): Record<string, JsonObject> => ({
  ...waitTimesPaths,
  ...waitHistoryPaths(examples?.history),
  ...parkDaysPaths(examples?.days),
  ...parkHoursPaths,
  ...eventFeedPaths(examples?.events),
  ...accuracyPaths(examples?.accuracy),
  ...locationPaths,
  ...contactPaths,
  ...alertsPaths,
  ...jobPaths,
  ...photoFeedPaths,
});

/** The history example, run once per process (a build asks for the description twice). */
let historyExample: Promise<WaitHistory> | undefined;

/** The description's title and version. */
const INFO = { title: 'site-api', version: '1.7.0' } as const;

/**
 * What the API catalog needs of the description (title, version, paths), for a live request: without
 * the schemas and the examples, which block the process for most of a second.
 */
export const openApiOutline = () => ({ info: INFO, paths: pathsOf() as OpenApiDocument['paths'] });

/**
 * The OpenAPI 3.1 description of the API, from the zod schemas the code validates with, so the two cannot drift;
 * `siteUrl` is the server URL (the prerendered /docs/openapi.json carries the SITE_URL of the build).
 */
export async function buildOpenApiDocument(siteUrl: string): Promise<OpenApiDocument> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  historyExample ??= waitHistoryExample();
  const paths = withCatalogLink(
    pathsOf({
      history: await historyExample,
      accuracy: accuracyExample(),
      days: parkDayExample(),
      events: eventFeedExample(siteUrl),
    }),
  );
  // The shared headers the paths refer to (the vocabulary holds more).
  const referenced = JSON.stringify(paths);
  const headers = Object.entries(HEADERS).filter(([name]) => referenced.includes(`"#/components/headers/${name}"`));
  return {
    openapi: '3.1.0',
    info: {
      ...INFO,
      summary: 'Live theme-park wait times and small utility endpoints of a personal website.',
      description: [
        'The public JSON API behind a personal website. Anonymous: no keys, no registration; only `POST /api/location` (the owner updating the travel pin) needs a bearer token.',
        'Every GET also answers HEAD, and OPTIONS preflights are answered. Public responses carry `Access-Control-Allow-Origin: *`; cacheable ones carry an `ETag` and answer `If-None-Match` with 304. Every error body is an object with a string field `error`. Every response links the API catalog (`Link: </.well-known/api-catalog>; rel="api-catalog"`).',
        'Public data is cached for 5 minutes: do not poll faster than that.',
      ].join('\n\n'),
      termsOfService: new URL(`${DOCS_PATH}#terms`, siteUrl).href,
      contact: { name: 'Site owner', url: new URL('/', siteUrl).href },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: siteUrl, description: 'This site' }],
    security: ANONYMOUS,
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas,
      headers: Object.fromEntries(headers),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

export interface OpenApiDocument extends JsonObject {
  openapi: '3.1.0';
  info: { title: string; version: string } & JsonObject;
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, JsonObject>>;
  components: JsonObject & { schemas: Record<string, JsonObject> };
}

/** Every response of every operation carries the `Link` to the API catalog (RFC 9727 §3). */
function withCatalogLink(paths: Record<string, JsonObject>): OpenApiDocument['paths'] {
  const copy = structuredClone(paths) as OpenApiDocument['paths'];
  for (const operation of Object.values(copy).flatMap((item) => Object.values(item))) {
    for (const response of Object.values((operation.responses ?? {}) as Record<string, JsonObject>)) {
      response.headers = { ...(response.headers as JsonObject | undefined), ...headerRefs('Link') };
    }
  }
  return copy;
}
