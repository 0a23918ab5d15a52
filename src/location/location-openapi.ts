import { methodNotAllowed } from '../platform/errors.ts';
import {
  errorResponseObject,
  headerRefs,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
  ref,
} from '../platform/openapi-vocabulary.ts';
import { MAX_BODY_BYTES } from './location.ts';

/** An `Error` answer with the body the code sends. */
const failure = (description: string, example: JsonObject, headers?: JsonObject): JsonObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: jsonContent('Error', example),
});

const updatedAt = '2024-02-02T07:15:49.000Z';
const overlandPoint = {
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [-122.030581, 37.3318] },
  properties: { timestamp: '2015-10-01T08:00:00-0700', horizontal_accuracy: 30 },
};

export const locationPaths: Record<string, JsonObject> = {
  '/api/location': {
    ...publicGet({
      operationId: 'getLocation',
      summary: 'Travel-mode pin',
      description:
        'Where the owner roughly is while travelling, coarsened to 2 decimal places (about 1 km), or a stale marker when there is no pin, travel mode is off, or the pin is older than the configured limit (6 hours by default). Nothing else the phone sends (accuracy, battery, speed, device, network) is ever published. Answers are cached for up to 60 seconds and refreshed at once when the owner posts an update. Agents: this GET is the only location operation for you.',
      tag: 'Location',
      ok: 'The pin, live or stale.',
      content: {
        'application/json': {
          schema: ref('Location'),
          examples: {
            live: { value: { status: 'live', lat: 48.86, lon: 2.29, updatedAt, label: 'Paris' } },
            stale: { value: { status: 'stale', updatedAt } },
            never: { value: { status: 'stale', updatedAt: null } },
          },
        },
      },
      more: {
        '405': errorResponseObject(
          'The path answers GET, HEAD, OPTIONS and POST only; `Allow` lists them.',
          methodNotAllowed(['GET', 'HEAD', 'OPTIONS', 'POST']),
          ['Allow', ...PUBLIC_HEADERS],
        ),
      },
    }),
    post: {
      operationId: 'updateLocation',
      summary: 'Update the travel-mode pin (owner only)',
      description: [
        "Owner only: called by the owner's phone with the owner's token. Agents and third parties must not call it; use GET.",
        '',
        'Three body formats are accepted, told apart by their members, and each is answered the way its app expects:',
        '- plain (`lat`, `lon`, optional `label`, `timestamp`, `active`): answered with the new GET body;',
        '- an OwnTracks HTTP-mode message (has `_type`): answered `[]`; messages other than `location` are accepted and ignored; a zero-length body from OwnTracks is accepted too;',
        '- an Overland batch (has `locations`): the newest point wins; answered `{"result":"ok"}`.',
        '',
        '`"active": false` ends travel mode (GET answers stale, and positions are accepted but discarded) until an update with `"active": true`.',
        'Updates are ordered by when the position was taken: one older than the stored pin never replaces it and is still answered as accepted.',
        'Positions are snapped to 2 decimal places before they are stored; nothing else the phone sends is kept.',
        'A timestamp more than 5 minutes ahead of the server clock is refused; one slightly ahead is read as now.',
        `Bodies over ${MAX_BODY_BYTES} bytes get 413. A client (an IPv4 address or an IPv6 /64) has 10 attempts per 15 minutes: every request with credentials takes one before the token is compared, and the right token gives it back. Once 10 failed attempts are inside the window, every request from that client gets 429, even with the right token, until the oldest leaves it (\`Retry-After\`).`,
      ].join('\n'),
      tags: ['Location'],
      security: [{ bearerAuth: [] }, { ownerTokenAsBasicPassword: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { oneOf: [ref('PlainLocationUpdate'), ref('OwnTracksMessage'), ref('OverlandBatch')] },
            examples: {
              plain: { value: { lat: 48.8583, lon: 2.2945, label: 'Paris', timestamp: '2024-02-02T07:15:49Z' } },
              endTravel: { value: { active: false } },
              owntracks: { value: { _type: 'location', lat: 48.85833, lon: 2.29513, tst: 1497476456, tid: 'JJ' } },
              overland: { value: { locations: [overlandPoint] } },
            },
          },
        },
      },
      responses: {
        '200': {
          description:
            'Accepted (also when the update was older than the stored pin, or travel mode is off). The body depends on the format sent: the new GET body for plain, `[]` for OwnTracks, `{"result":"ok"}` for Overland.',
          headers: headerRefs('Cache-Control'),
          content: {
            'application/json': {
              schema: { oneOf: [ref('Location'), ref('OwnTracksResponse'), ref('OverlandResponse')] },
            },
          },
        },
        '400': failure(
          'The body is not a JSON object, a member is invalid (e.g. latitude outside [-90, 90], longitude outside [-180, 180], a non-number, a timestamp in the future), or the `Authorization` header is malformed or the token was sent in more than one way (then with an `invalid_request` challenge).',
          {
            error: 'invalid location update',
            issues: [{ path: 'lat', message: 'Too big: expected number to be <=90' }],
          },
          {
            ...headerRefs('Cache-Control'),
            'WWW-Authenticate': {
              description:
                'Only when the `Authorization` header was malformed or the token was sent in more than one way: a Bearer challenge with `error="invalid_request"`.',
              required: false,
              schema: { type: 'string', pattern: '^Bearer ' },
            },
          },
        ),
        '401': failure(
          'No token, a wrong one, or no token configured on the server. Expected for everyone but the owner.',
          { error: 'invalid token' },
          headerRefs('WWW-Authenticate', 'Cache-Control'),
        ),
        '413': failure(`The body is larger than ${MAX_BODY_BYTES} bytes.`, {
          error: `body larger than ${MAX_BODY_BYTES} bytes`,
        }),
        '415': failure('The body is not JSON (`application/json`, or a `+json` type).', {
          error: 'content type must be application/json',
        }),
        '429': failure(
          'Too many failed authentications from this client (an IPv4 address or an IPv6 /64) within 15 minutes; `Retry-After` counts from the oldest.',
          { error: 'too many requests' },
          headerRefs('Retry-After', 'Cache-Control'),
        ),
        '503': failure(
          'The pin store is unavailable for the moment; try again later (the phone apps retry on their own).',
          { error: 'location store unavailable' },
        ),
      },
    },
  },
  '/.well-known/oauth-protected-resource': publicGet({
    operationId: 'getProtectedResourceMetadata',
    summary: 'OAuth protected resource metadata (RFC 9728)',
    description:
      'Describes the one protected operation (POST /api/location). There is no authorization server and no `/.well-known/oauth-authorization-server`: the token is provisioned by hand and cannot be obtained.',
    tag: 'Discovery',
    ok: 'The metadata; `resource` is the site origin.',
    content: jsonContent('ProtectedResourceMetadata'),
  }),
};
