// Builders for OpenAPI 3.1 objects, so that path files stay declarative, and what every area shares.
import { HttpError, methodNotAllowed } from './errors.ts';
import { errorBody } from './http.ts';

export type JsonObject = Record<string, unknown>;

/** A reference to a schema registered with `.meta({ id })`. */
export const ref = (id: string): JsonObject => ({ $ref: `#/components/schemas/${id}` });

/** A JSON body described by a registered schema, with an example produced by the real code. */
export function jsonContent(schemaId: string, example?: unknown): JsonObject {
  return {
    'application/json': { schema: ref(schemaId), ...(example === undefined ? {} : { example }) },
  };
}

/** The error that `task` throws, so examples of error responses come from the code that answers them. */
export function thrownBy(task: () => unknown): HttpError {
  try {
    task();
  } catch (error) {
    if (error instanceof HttpError) return error;
  }
  throw new Error('expected the example task to throw an HttpError');
}

/** `required`: the header is on every response that lists it (the contract test holds us to that). */
const header = (description: string, schema: JsonObject = { type: 'string' }) => ({
  description,
  required: true as const,
  schema,
});

/** Response headers, emitted once under `components.headers` and referenced by name. */
export const HEADERS = {
  ETag: header('Strong validator of the body; send it back in `If-None-Match` to get a 304 when nothing changed.'),
  'Cache-Control': header(
    'Browser caching. Public data is `public, max-age=0, must-revalidate` (revalidate with the ETag, the CDN keeps the copy); errors and anything that depends on `Authorization` are `no-store`.',
  ),
  'Access-Control-Allow-Origin': header('CORS: `*`, any web page may read public responses.', {
    type: 'string',
    const: '*',
  }),
  'Retry-After': header('Seconds to wait before trying again.', { type: 'integer', minimum: 1 }),
  Allow: header('The methods this path supports.'),
  'WWW-Authenticate': header(
    'RFC 6750 bearer challenge: `Bearer realm="…", resource_metadata="<site>/.well-known/oauth-protected-resource"`, plus `error="invalid_token"` when a token was sent.',
    { type: 'string', pattern: '^Bearer ' },
  ),
  Link: header('RFC 9727 §3: where the API catalog is, `</.well-known/api-catalog>; rel="api-catalog"`.'),
} as const satisfies Record<string, JsonObject>;

export type HeaderName = keyof typeof HEADERS;

/** References to shared headers, by name. */
export function headerRefs(...names: HeaderName[]): Record<string, JsonObject> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Headers of every public, anonymous response (errors included). */
export const PUBLIC_HEADERS = ['Access-Control-Allow-Origin', 'Cache-Control'] as const satisfies HeaderName[];

/** An error response whose example is the body the real code answers for `error`. */
export function errorResponseObject(description: string, error: HttpError, headers: readonly HeaderName[] = []) {
  return { description, headers: headerRefs(...headers), content: jsonContent('Error', errorBody(error)) };
}

/** The 405 of a read-only public resource (`publicJsonRoutes`): GET, HEAD and OPTIONS only. */
export const readOnlyMethodNotAllowed: JsonObject = errorResponseObject(
  'The path answers GET, HEAD and OPTIONS only; `Allow` lists them.',
  methodNotAllowed(['GET', 'HEAD', 'OPTIONS']),
  ['Allow', ...PUBLIC_HEADERS],
);

/** 304 to a matching `If-None-Match`: no body, the validator again. */
export const notModified: JsonObject = {
  description: 'Not modified: the `If-None-Match` validator still matches. No body.',
  headers: headerRefs('ETag'),
};

/** An anonymous read-only GET (`publicJsonRoutes`): its 200 (`ok`, with ETag), 304, 405 and `more` responses. */
type PublicGet = Record<'operationId' | 'summary' | 'description' | 'ok', string> & {
  tag: (typeof TAGS)[number]['name'];
  content: JsonObject;
  parameters?: JsonObject[];
  more?: JsonObject;
};
export function publicGet({ tag, ok, content, more = {}, ...operation }: PublicGet): JsonObject {
  const okResponse = { description: ok, headers: headerRefs('ETag', ...PUBLIC_HEADERS), content };
  return {
    get: {
      ...operation,
      tags: [tag],
      security: ANONYMOUS,
      responses: { '200': okResponse, '304': notModified, '405': readOnlyMethodNotAllowed, ...more },
    },
  };
}

/** API-wide tags, in the order the reference shows them. Each operation uses one of these names. */
export const TAGS = [
  {
    name: 'Wait times',
    description: 'Live ride waits for 17 theme parks, relayed from queue-times.com; park hours from ThemeParks.wiki.',
  },
  { name: 'Location', description: 'The travel-mode location pin.' },
  { name: 'Contact', description: 'Messages for the site owner.' },
  { name: 'Push alerts', description: 'One Web Push notification when a ride reopens or its wait drops.' },
  { name: 'Job status', description: 'Health of the two automated jobs.' },
  { name: 'Photo feed', description: 'The cached photo-sharing feed.' },
  { name: 'Discovery', description: 'Machine-readable documents about the API itself.' },
] as const;

/** The one protected operation (POST /api/location) names these schemes in its `security`. */
export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The owner's token, provisioned by hand to the owner's phone. It cannot be registered, claimed or exchanged, and no authorization server exists (see `/.well-known/oauth-protected-resource`).",
  },
  ownerTokenAsBasicPassword: {
    type: 'http',
    scheme: 'basic',
    description:
      "For OwnTracks on Android, which can only send HTTP Basic: any user name, the owner's token as the password.",
  },
} as const;

/** Anonymous: the operation needs no credentials (OpenAPI 3.1 §4.8.10, an empty requirement list). */
export const ANONYMOUS: JsonObject[] = [];
