import * as z from '../platform/zod-mini.ts';
import { EventTypeSchema } from '../wait-times/events/event-schemas.ts';
import { minutes } from '../wait-times/park-snapshot-schemas.ts';
import { PARK_SLUGS } from '../wait-times/parks.ts';

// Web Push alerts (docs/alerts-push.md): the request that subscribes, its answer, the record kept
// in Blobs until the park closes, and the payload a push carries.

/** What an alert waits for: the ride reopening, or its posted wait at or below `below` minutes. */
export const ALERT_KINDS = ['reopened', 'below'] as const;
/** The widest `below` accepted: posted waits above 3 hours are not something to wait for. */
export const MAX_BELOW_MINUTES = 180;

const base64url = (octets: number, what: string) =>
  z
    .string({ error: 'must be text' })
    .check(
      z.regex(
        new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((octets * 4) / 3)}}={0,2}$`),
        `must be ${what} in URL-safe base64 (${octets} octets)`,
      ),
    );

/** `PushSubscription.toJSON()` as browsers give it; `expirationTime` and unknown fields are ignored. */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: 'is required' })
    .check(
      z.maxLength(2048, 'must be at most 2048 characters'),
      z.describe(
        'The push service URL the browser was given: https on Mozilla, Google, Apple or Microsoft push services.',
      ),
    ),
  keys: z.object(
    {
      p256dh: base64url(65, 'a P-256 public key'),
      auth: base64url(16, 'an authentication secret'),
    },
    { error: 'must be an object with p256dh and auth' },
  ),
});

/** A request as a browser on Chrome sends it (keys made up): the schema's and the OpenAPI document's example. */
export const ALERT_REQUEST_EXAMPLE = {
  subscription: {
    endpoint: 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH…',
    keys: {
      p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      auth: 'BTBZMqHH6r4Tts7J_aSIgg',
    },
  },
  park: 'epcot',
  ride: 159,
  on: 'below',
  below: 20,
};

export const AlertRequestSchema = z
  .object(
    {
      subscription: PushSubscriptionSchema,
      park: z.enum(PARK_SLUGS, { error: 'must be one of the park slugs of GET /api/parks' }),
      ride: z
        .int({ error: 'must be a whole number' })
        .check(
          z.positive('must be positive'),
          z.describe("The ride's queue-times id (`rides[].id` of GET /api/wait-times)."),
        ),
      on: z
        .enum(ALERT_KINDS, { error: 'must be "reopened" or "below"' })
        .check(
          z.describe(
            '`reopened`: when the ride reopens. `below`: when its posted wait is at or below `below` minutes.',
          ),
        ),
      below: z.optional(
        z
          .int({ error: 'must be a whole number of minutes' })
          .check(
            z.minimum(0, 'must be at least 0'),
            z.maximum(MAX_BELOW_MINUTES, `must be at most ${MAX_BELOW_MINUTES}`),
            z.describe('Minutes; required with `on: "below"`, ignored otherwise.'),
          ),
      ),
    },
    { error: 'must be an object with subscription, park, ride and on' },
  )
  .check(
    z.refine((value) => value.on !== 'below' || value.below !== undefined, {
      message: 'is required when on is "below"',
      path: ['below'],
    }),
    z.meta({
      id: 'AlertRequest',
      description:
        'Tell this browser once when a ride reopens, or when its posted wait is at or below a number of minutes.',
      examples: [ALERT_REQUEST_EXAMPLE],
    }),
  );

export const AlertCreatedSchema = z
  .strictObject({
    id: z.string().check(z.describe('Unguessable; `DELETE /api/alerts/{id}` cancels the alert. Keep it private.')),
    expiresAt: z
      .unixMs()
      .check(
        z.describe(
          "Unix ms when the alert and its push endpoint are deleted: the park's closing today, or the end of its local day when its hours are unknown.",
        ),
      ),
  })
  .check(z.meta({ id: 'AlertCreated' }));

export const VapidKeyAnswerSchema = z
  .strictObject({
    publicKey: z
      .string()
      .check(z.describe("The VAPID public key (RFC 8292), URL-safe base64: the browser's `applicationServerKey`.")),
  })
  .check(z.meta({ id: 'VapidKey' }));

/** One alert as kept (Blobs store `alerts`, `subs/<park>/<ride>/<expiry time key>-<id>`), deleted at expiry or once sent. */
export const StoredAlertSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  park: z.enum(PARK_SLUGS),
  ride: z.int(),
  on: z.enum(ALERT_KINDS),
  below: z.nullable(minutes),
  endpoint: z.string(),
  keys: z.object({ p256dh: z.string(), auth: z.string() }),
  createdAt: z.unixMs(),
  expiresAt: z.unixMs(),
});

/** `ids/<id>`: where an alert is, so that DELETE finds it without listing anyone's. */
export const AlertIndexSchema = z.object({ key: z.string() });

/** What the service worker receives, decrypted (public/sw.js); not in the OpenAPI document, no endpoint answers it. */
export const PushPayloadSchema = z.strictObject({
  type: EventTypeSchema,
  ride: z.strictObject({ id: z.int(), name: z.string() }),
  waitNow: z.nullable(minutes),
  /** The park page. */
  url: z.string(),
});

export type AlertRequest = z.output<typeof AlertRequestSchema>;
export type AlertCreated = z.output<typeof AlertCreatedSchema>;
export type StoredAlert = z.output<typeof StoredAlertSchema>;
export type PushPayload = z.output<typeof PushPayloadSchema>;
