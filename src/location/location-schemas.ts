import * as z from 'zod';

/**
 * Travel-mode location pin: what the owner's phone may POST (three formats, so that OwnTracks,
 * Overland and anything that can send a small JSON object work unchanged), what is kept in Blobs,
 * and what GET /api/location publishes. The formats follow notes/location-clients.md.
 */

/** 2000-01-01T00:00:00Z: no real fix is older; anything before is a unit mistake (seconds for ms). */
export const EARLIEST_FIX_MS = 946_684_800_000;

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

// ISO 8601 date-time with a zone. Overland writes the offset without a colon (`-0700`), which
// ISO 8601 allows (basic format) and RFC 3339 does not, so `z.iso.datetime()` is too strict here.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Unix milliseconds of an ISO 8601 date-time with a zone; NaN when it is not one. */
export function parseIsoDateTime(value: string): number {
  if (!ISO_DATE_TIME.test(value)) return Number.NaN;
  return Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

const isoDateTime = z
  .string()
  .regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time with a time zone')
  .refine((value) => parseIsoDateTime(value) >= EARLIEST_FIX_MS, 'must be a real date after 2000-01-01');

// Numbers from an iOS Shortcut dictionary may arrive as text; the text must still be a plain decimal.
const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const lenientDegrees = (bound: number) =>
  z.union([
    z.number().min(-bound).max(bound),
    z
      .string()
      .trim()
      .regex(DECIMAL, 'must be a number')
      .refine((text) => Math.abs(Number(text)) <= bound, `must be between -${bound} and ${bound}`),
  ]);

/** Reads a number or numeric text that the schema has already checked. */
export const degreesOf = (value: number | string): number => (typeof value === 'number' ? value : Number(value));

export const PlainLocationUpdateSchema = z
  .looseObject({
    lat: lenientDegrees(90)
      .optional()
      .meta({ description: 'Latitude in degrees (a number; numeric text is accepted too).' }),
    lon: lenientDegrees(180).optional().meta({ description: 'Longitude in degrees.' }),
    latitude: lenientDegrees(90)
      .optional()
      .meta({ description: 'Same as `lat` (for iOS Shortcuts dictionaries); `lat` wins when both are sent.' }),
    longitude: lenientDegrees(180).optional().meta({ description: 'Same as `lon`; `lon` wins when both are sent.' }),
    label: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((text) => !/\p{Cc}/u.test(text), 'must not contain control characters')
      .optional()
      .meta({ description: 'Place name to publish with the pin, e.g. a city. Published as sent.' }),
    timestamp: z
      .union([isoDateTime, z.int().min(EARLIEST_FIX_MS)])
      .optional()
      .meta({
        description:
          'When the position was taken: ISO 8601 with a time zone, or Unix milliseconds. Default: when the request arrives.',
      }),
    active: z.boolean().optional().meta({
      description:
        '`false` ends travel mode: GET answers the stale marker until an update with `true` starts it again. `true` starts it.',
    }),
    _type: z.never().optional().meta({ description: 'Not allowed: a body with `_type` is an OwnTracks message.' }),
    locations: z.never().optional().meta({ description: 'Not allowed: a body with `locations` is an Overland batch.' }),
  })
  .superRefine((body, context) => {
    const hasLat = body.lat !== undefined || body.latitude !== undefined;
    const hasLon = body.lon !== undefined || body.longitude !== undefined;
    if (hasLat !== hasLon) {
      context.addIssue({ code: 'custom', path: [hasLat ? 'lon' : 'lat'], message: 'lat and lon go together' });
    } else if (!hasLat && body.active === undefined) {
      context.addIssue({ code: 'custom', path: ['lat'], message: 'lat and lon are required unless active is sent' });
    }
  })
  .meta({
    id: 'PlainLocationUpdate',
    description:
      'The plain format: a position (`lat` and `lon`), travel mode on or off (`active`), or both. Other members are ignored and never published.',
  });

export const OwnTracksLocationSchema = z
  .looseObject({
    _type: z.literal('location'),
    lat: latitude.meta({ description: 'Latitude in degrees.' }),
    lon: longitude.meta({ description: 'Longitude in degrees.' }),
    tst: z
      .int()
      .min(EARLIEST_FIX_MS / 1000)
      .meta({ description: 'When the position was taken, Unix seconds.' }),
  })
  .meta({
    id: 'OwnTracksLocation',
    description:
      'An OwnTracks `location` message (HTTP mode). Only `lat`, `lon` and `tst` are read; accuracy, battery, network, regions, images and the rest are ignored and never published.',
  });

export const OwnTracksOtherMessageSchema = z
  .looseObject({
    _type: z.string().regex(/^(?!location$)/),
  })
  .meta({
    id: 'OwnTracksOtherMessage',
    description: 'Any other OwnTracks message (`transition`, `waypoint`, `card`, `lwt`, …): accepted and ignored.',
  });

export const OwnTracksMessageSchema = z.union([OwnTracksLocationSchema, OwnTracksOtherMessageSchema]).meta({
  id: 'OwnTracksMessage',
  description: 'One OwnTracks message, as the app sends it in HTTP mode (one message per request).',
});

const PointGeometrySchema = z.looseObject({
  type: z.literal('Point'),
  coordinates: z
    .tuple([longitude, latitude], z.number())
    .meta({ description: 'GeoJSON order: longitude, latitude (then optionally altitude).' }),
});

export const OverlandFeatureSchema = z
  .looseObject({
    type: z.literal('Feature'),
    geometry: PointGeometrySchema.nullable().optional(),
    properties: z
      .looseObject({
        timestamp: isoDateTime
          .optional()
          .meta({ description: 'When the position was taken, ISO 8601 (`2015-10-01T08:00:00-0700` is fine).' }),
      })
      .optional(),
  })
  .superRefine((feature, context) => {
    if (feature.geometry && feature.properties?.timestamp === undefined) {
      context.addIssue({ code: 'custom', path: ['properties', 'timestamp'], message: 'a point needs a timestamp' });
    }
  })
  .meta({
    id: 'OverlandFeature',
    description:
      'A GeoJSON Feature as Overland sends it. Features without a geometry (app events) are skipped; only the coordinates and `properties.timestamp` of points are read.',
  });

export const OverlandBatchSchema = z
  .looseObject({
    locations: z.array(OverlandFeatureSchema),
    // The app adds `current` (its newest point, not in the batch) when its queue is long. It is a
    // bonus: a malformed one is ignored rather than failing the batch, which the app would resend forever.
    current: OverlandFeatureSchema.optional().catch(undefined),
    _type: z.never().optional().meta({ description: 'Not allowed: a body with `_type` is an OwnTracks message.' }),
  })
  .meta({
    id: 'OverlandBatch',
    description:
      'An Overland batch. The newest point with a geometry (among `locations` and `current`) wins; `trip` and the rest are ignored.',
  });

/** The answer OwnTracks expects: a JSON array of messages for the app (always empty here). */
export const OwnTracksResponseSchema = z.array(z.looseObject({ _type: z.string() })).meta({
  id: 'OwnTracksResponse',
  description: 'What OwnTracks expects back: an array of messages for the app. This service always answers `[]`.',
});

/** The answer Overland needs before it deletes a batch from the phone. */
export const OverlandResponseSchema = z
  .object({ result: z.literal('ok') })
  .strict()
  .meta({ id: 'OverlandResponse', description: 'What Overland needs before it deletes the batch from the phone.' });

/** A position as kept in Blobs: already coarsened (nothing finer is ever stored), with its fix time. */
export const StoredPinSchema = z
  .object({
    lat: latitude,
    lon: longitude,
    label: z.string().min(1).max(100).optional(),
    at: z.int().min(EARLIEST_FIX_MS),
  })
  .strict();

/** Travel mode switched on or off, and when. */
export const StoredTravelSwitchSchema = z
  .object({
    active: z.boolean(),
    at: z.int().min(EARLIEST_FIX_MS),
  })
  .strict();

const updatedAt = z.iso.datetime().meta({ description: 'When the position was taken (ISO 8601, UTC).' });

export const LiveLocationSchema = z
  .object({
    status: z.literal('live'),
    lat: latitude.meta({ description: 'Latitude rounded to 2 decimal places (about 1 km).' }),
    lon: longitude.meta({ description: 'Longitude rounded to 2 decimal places.' }),
    updatedAt,
    label: z.string().optional().meta({ description: 'Place name the owner sent with the position, if any.' }),
  })
  .strict()
  .meta({ id: 'LiveLocation', description: 'The owner is travelling and roughly here.' });

export const StaleLocationSchema = z
  .object({
    status: z.literal('stale'),
    updatedAt: updatedAt.nullable().meta({
      description: 'When the last published position was taken; null when there has never been one.',
    }),
  })
  .strict()
  .meta({
    id: 'StaleLocation',
    description: 'No current pin: there is none, travel mode is off, or the last one is too old.',
  });

export const LocationSchema = z.discriminatedUnion('status', [LiveLocationSchema, StaleLocationSchema]).meta({
  id: 'Location',
  description: 'The travel-mode pin: live (coarsened to about 1 km) or a stale marker.',
});

export type PlainLocationUpdate = z.output<typeof PlainLocationUpdateSchema>;
export type OwnTracksLocation = z.output<typeof OwnTracksLocationSchema>;
export type OverlandBatch = z.output<typeof OverlandBatchSchema>;
export type OverlandFeature = z.output<typeof OverlandFeatureSchema>;
export type StoredPin = z.output<typeof StoredPinSchema>;
export type StoredTravelSwitch = z.output<typeof StoredTravelSwitchSchema>;
export type Location = z.output<typeof LocationSchema>;
