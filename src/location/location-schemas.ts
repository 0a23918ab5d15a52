import * as z from '../platform/zod-mini.ts';

/** The travel-mode pin: what the owner's phone may POST, what Blobs keeps, and what GET publishes. */

/** 2000-01-01: no real fix is older; anything before is a unit mistake (seconds for ms). */
export const EARLIEST_FIX_MS = 946_684_800_000;

const degrees = (bound: number) => z.number().check(z.minimum(-bound), z.maximum(bound));
const latitude = degrees(90);
const longitude = degrees(180);
const fixMs = z.int().check(z.minimum(EARLIEST_FIX_MS));
const placeName = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(100),
  z.refine((text) => !/\p{Cc}/u.test(text), 'must not contain control characters'),
);

// Overland writes the zone offset without a colon (`-0700`): ISO 8601, but not RFC 3339 (`z.iso.datetime()`).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Unix milliseconds of an ISO 8601 date-time with a zone; NaN when it is not one. */
export function parseIsoDateTime(value: string): number {
  if (!ISO_DATE_TIME.test(value)) return Number.NaN;
  return Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

const isoDateTime = z.string().check(
  z.regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time with a time zone'),
  z.refine((value) => parseIsoDateTime(value) >= EARLIEST_FIX_MS, 'must be a real date after 2000-01-01'),
);

// An iOS Shortcut dictionary may send numbers as text; it must still be a plain decimal.
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const lenientDegrees = (bound: number) =>
  z.union([
    degrees(bound),
    z.string().check(
      z.trim(),
      z.regex(DECIMAL, 'must be a number'),
      z.refine((text) => Math.abs(Number(text)) <= bound, `must be between -${bound} and ${bound}`),
    ),
  ]);

export const PlainLocationUpdateSchema = z
  .looseObject({
    lat: z
      .optional(lenientDegrees(90))
      .check(z.describe('Latitude in degrees (a number; numeric text is accepted too).')),
    lon: z.optional(lenientDegrees(180)).check(z.describe('Longitude in degrees.')),
    latitude: z
      .optional(lenientDegrees(90))
      .check(z.describe('Same as `lat` (for iOS Shortcuts dictionaries); `lat` wins when both are sent.')),
    longitude: z.optional(lenientDegrees(180)).check(z.describe('Same as `lon`; `lon` wins when both are sent.')),
    label: z
      .optional(placeName)
      .check(z.describe('Place name to publish with the pin, e.g. a city. Published as sent.')),
    timestamp: z
      .optional(z.union([isoDateTime, fixMs]))
      .check(
        z.describe(
          'When the position was taken: ISO 8601 with a time zone, or Unix milliseconds. Default: when the request arrives.',
        ),
      ),
    active: z
      .optional(z.boolean())
      .check(
        z.describe(
          '`false` ends travel mode: GET answers the stale marker until an update with `true` starts it again. `true` starts it.',
        ),
      ),
    _type: z.optional(z.never()).check(z.describe('Not allowed: a body with `_type` is an OwnTracks message.')),
    locations: z.optional(z.never()).check(z.describe('Not allowed: a body with `locations` is an Overland batch.')),
  })
  .check(
    z.superRefine((body, context) => {
      const hasLat = body.lat !== undefined || body.latitude !== undefined;
      const hasLon = body.lon !== undefined || body.longitude !== undefined;
      if (hasLat !== hasLon) {
        context.addIssue({ code: 'custom', path: [hasLat ? 'lon' : 'lat'], message: 'lat and lon go together' });
      } else if (!hasLat && body.active === undefined) {
        context.addIssue({ code: 'custom', path: ['lat'], message: 'lat and lon are required unless active is sent' });
      }
    }),
    z.meta({
      id: 'PlainLocationUpdate',
      description:
        'The plain format: a position (`lat` and `lon`), travel mode on or off (`active`), or both. Other members are ignored and never published.',
    }),
  );

export const OwnTracksLocationSchema = z
  .looseObject({
    _type: z.literal('location'),
    lat: latitude.check(z.describe('Latitude in degrees.')),
    lon: longitude.check(z.describe('Longitude in degrees.')),
    tst: z.int().check(z.minimum(EARLIEST_FIX_MS / 1000), z.describe('When the position was taken, Unix seconds.')),
  })
  .check(
    z.meta({
      id: 'OwnTracksLocation',
      description:
        'An OwnTracks `location` message (HTTP mode). Only `lat`, `lon` and `tst` are read; accuracy, battery, network, regions, images and the rest are ignored and never published.',
    }),
  );

const OwnTracksOtherMessageSchema = z
  .looseObject({
    _type: z.string().check(z.regex(/^(?!location$)/)),
  })
  .check(
    z.meta({
      id: 'OwnTracksOtherMessage',
      description: 'Any other OwnTracks message (`transition`, `waypoint`, `card`, `lwt`, …): accepted and ignored.',
    }),
  );

// Registered for the OpenAPI document: location-update.ts tells the messages apart by `_type`.
z.union([OwnTracksLocationSchema, OwnTracksOtherMessageSchema]).check(
  z.meta({
    id: 'OwnTracksMessage',
    description: 'One OwnTracks message, as the app sends it in HTTP mode (one message per request).',
  }),
);

const PointGeometrySchema = z.looseObject({
  type: z.literal('Point'),
  coordinates: z
    .tuple([longitude, latitude], z.number())
    .check(z.describe('GeoJSON order: longitude, latitude (then optionally altitude).')),
});

const OverlandFeatureSchema = z
  .looseObject({
    type: z.literal('Feature'),
    geometry: z.optional(z.nullable(PointGeometrySchema)),
    properties: z.optional(
      z.looseObject({
        timestamp: z
          .optional(isoDateTime)
          .check(z.describe('When the position was taken, ISO 8601 (`2015-10-01T08:00:00-0700` is fine).')),
      }),
    ),
  })
  .check(
    z.superRefine((feature, context) => {
      if (feature.geometry && feature.properties?.timestamp === undefined) {
        context.addIssue({ code: 'custom', path: ['properties', 'timestamp'], message: 'a point needs a timestamp' });
      }
    }),
    z.meta({
      id: 'OverlandFeature',
      description:
        'A GeoJSON Feature as Overland sends it. Features without a geometry (app events) are skipped; only the coordinates and `properties.timestamp` of points are read.',
    }),
  );

export const OverlandBatchSchema = z
  .looseObject({
    locations: z.array(OverlandFeatureSchema),
    // The app's newest point: a malformed one is ignored, not failing the batch the app would resend forever.
    current: z.catch(z.optional(OverlandFeatureSchema), undefined),
    _type: z.optional(z.never()).check(z.describe('Not allowed: a body with `_type` is an OwnTracks message.')),
  })
  .check(
    z.meta({
      id: 'OverlandBatch',
      description:
        'An Overland batch. The newest point with a geometry (among `locations` and `current`) wins; `trip` and the rest are ignored.',
    }),
  );

export const OwnTracksResponseSchema = z.array(z.looseObject({ _type: z.string() })).check(
  z.meta({
    id: 'OwnTracksResponse',
    description: 'What OwnTracks expects back: an array of messages for the app. This service always answers `[]`.',
  }),
);

export const OverlandResponseSchema = z
  .strictObject({ result: z.literal('ok') })
  .check(
    z.meta({ id: 'OverlandResponse', description: 'What Overland needs before it deletes the batch from the phone.' }),
  );

/** A pin as Blobs keeps it: coarsened (nothing finer is ever stored), with its fix time. */
export const StoredPinSchema = z.strictObject({
  lat: latitude,
  lon: longitude,
  label: z.optional(placeName),
  at: fixMs,
});

/** Travel mode switched on or off, and when. */
export const StoredTravelSwitchSchema = z.strictObject({
  active: z.boolean(),
  at: fixMs,
});

const updatedAt = z.iso.datetime().check(z.describe('When the position was taken (ISO 8601, UTC).'));

const LiveLocationSchema = z
  .strictObject({
    status: z.literal('live'),
    lat: latitude.check(z.describe('Latitude rounded to 2 decimal places (about 1 km).')),
    lon: longitude.check(z.describe('Longitude rounded to 2 decimal places.')),
    updatedAt,
    label: z.optional(z.string()).check(z.describe('Place name the owner sent with the position, if any.')),
  })
  .check(z.meta({ id: 'LiveLocation', description: 'The owner is travelling and roughly here.' }));

const StaleLocationSchema = z
  .strictObject({
    status: z.literal('stale'),
    updatedAt: z
      .nullable(updatedAt)
      .check(z.describe('When the last published position was taken; null when there has never been one.')),
  })
  .check(
    z.meta({
      id: 'StaleLocation',
      description: 'No current pin: there is none, travel mode is off, or the last one is too old.',
    }),
  );

export const LocationSchema = z.discriminatedUnion('status', [LiveLocationSchema, StaleLocationSchema]).check(
  z.meta({
    id: 'Location',
    description: 'The travel-mode pin: live (coarsened to about 1 km) or a stale marker.',
  }),
);

/** RFC 9728 metadata; without an authorization server, `authorization_servers` is left out (§3.2). */
export const ProtectedResourceMetadataSchema = z
  .strictObject({
    resource: z.url().check(z.describe('The resource identifier: the site origin (`SITE_URL`).')),
    bearer_methods_supported: z
      .array(z.enum(['header', 'body', 'query']))
      .check(z.describe('The token is accepted in the `Authorization` header only.')),
    resource_name: z.string(),
    resource_documentation: z.url(),
  })
  .check(
    z.meta({
      id: 'ProtectedResourceMetadata',
      description:
        'RFC 9728 metadata. No `authorization_servers`: tokens cannot be obtained, only provisioned by the owner.',
    }),
  );

export type StoredPin = z.output<typeof StoredPinSchema>;
export type StoredTravelSwitch = z.output<typeof StoredTravelSwitchSchema>;
export type Location = z.output<typeof LocationSchema>;
export type ProtectedResourceMetadata = z.output<typeof ProtectedResourceMetadataSchema>;
