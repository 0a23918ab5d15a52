import {
  badRequest,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  tooManyRequests,
  unsupportedMediaType,
} from '../platform/errors.ts';
import {
  ANONYMOUS,
  errorResponseObject,
  headerRefs,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
  ref,
} from '../platform/openapi-vocabulary.ts';
import { ALERT_REQUEST_EXAMPLE } from './alert-schemas.ts';
import { ALERTS_MAX_BODY_BYTES, ALERTS_PER_PARK, ALERTS_RATE_LIMIT, webPushUnavailable } from './alerts.ts';
import { PUSH_SERVICES } from './push-endpoints.ts';

const NOT_CONFIGURED = webPushUnavailable();
const services = PUSH_SERVICES.map(({ name, host, subdomains }) => `${name} (\`${subdomains ? '*.' : ''}${host}\`)`);

const example = ALERT_REQUEST_EXAMPLE;

const noStore = headerRefs('Cache-Control');

export const alertsPaths: Record<string, JsonObject> = {
  '/api/alerts': {
    post: {
      operationId: 'createAlert',
      summary: 'Be told once when a ride reopens or its wait drops',
      description: [
        'Subscribes a browser\'s push subscription (`PushSubscription.toJSON()`) to one ride of one park: `on: "reopened"` pushes when the ride reopens; `on: "below"` pushes when its posted wait falls through a band (10, 20, 30, 45, 60 minutes) or the ride reopens, with the wait at or below `below` minutes. One push, then the alert is deleted; it expires at the park\'s closing today (the end of its local day when the hours are unknown), endpoint and keys with it.',
        `The endpoint must be https on a known push service: ${services.join(', ')}. Any other address (loopback, private, another host) is refused with 400.`,
        `At most ${ALERTS_RATE_LIMIT.limit} alerts per client per hour (valid ones count) and ${ALERTS_PER_PARK} live alerts per park; then 429 with \`Retry-After\`. No endpoint lists alerts. Only the site's own pages subscribe (no CORS).`,
      ].join('\n\n'),
      tags: ['Push alerts'],
      security: ANONYMOUS,
      requestBody: {
        required: true,
        description: `At most ${ALERTS_MAX_BODY_BYTES / 1024} KiB of JSON.`,
        content: { 'application/json': { schema: ref('AlertRequest'), example } },
      },
      responses: {
        '201': {
          description: 'Kept: the id to cancel it with and when it expires.',
          headers: noStore,
          content: jsonContent('AlertCreated', { id: 'q0DJbPa1xW3nGZ2Ykf7s9A', expiresAt: 1764370800000 }),
        },
        '400': errorResponseObject(
          'A field is missing or invalid (the endpoint included); `issues` names each field.',
          badRequest('invalid alert', [{ path: 'subscription.endpoint', message: 'must be an https URL' }]),
        ),
        '405': errorResponseObject('Only POST is answered here.', methodNotAllowed(['POST']), ['Allow']),
        '413': errorResponseObject(
          `The body is larger than ${ALERTS_MAX_BODY_BYTES / 1024} KiB.`,
          payloadTooLarge(ALERTS_MAX_BODY_BYTES),
        ),
        '415': errorResponseObject(
          'The body is not `application/json`.',
          unsupportedMediaType('content type must be application/json'),
        ),
        '429': errorResponseObject(
          'Too many alerts from this client within the hour, or the park holds as many live alerts as it takes.',
          tooManyRequests(60),
          ['Retry-After'],
        ),
        '503': errorResponseObject(
          'Web Push is not configured on this site (the park page then offers no alerts), or the store is unavailable.',
          NOT_CONFIGURED,
        ),
      },
    },
  },
  '/api/alerts/{id}': {
    delete: {
      operationId: 'cancelAlert',
      summary: 'Cancel an alert',
      description: 'Deletes the alert and its push endpoint at once.',
      tags: ['Push alerts'],
      security: ANONYMOUS,
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The `id` answered by POST /api/alerts.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' },
        },
      ],
      responses: {
        '204': { description: 'Deleted.' },
        '404': errorResponseObject(
          'No alert has this id (never made, sent, expired or cancelled).',
          notFound('no such alert'),
        ),
        '405': errorResponseObject('Only DELETE is answered here.', methodNotAllowed(['DELETE']), ['Allow']),
      },
    },
  },
  '/api/alerts/key': publicGet({
    operationId: 'getVapidKey',
    summary: 'The public key push subscriptions are made with',
    description:
      'The VAPID public key (RFC 8292) to pass as `applicationServerKey` to `PushManager.subscribe()`. 503 while the site has no VAPID keys: then no alerts can be made.',
    ok: 'The key.',
    tag: 'Push alerts',
    content: jsonContent('VapidKey', { publicKey: example.subscription.keys.p256dh }),
    more: {
      '503': {
        ...errorResponseObject('Web Push is not configured on this site.', NOT_CONFIGURED),
        headers: headerRefs(...PUBLIC_HEADERS),
      },
    },
  }),
};
