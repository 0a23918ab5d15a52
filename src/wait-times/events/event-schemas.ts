import * as z from '../../platform/zod-mini.ts';
import { ReopenWithinSchema } from '../outages/outage-schemas.ts';
import { minutes } from '../park-snapshot-schemas.ts';
import { PARK_SLUGS } from '../parks.ts';

// What changed at a park, as the recorder saw it (docs/alerts.md). INTERFACE shared by the writer
// (event-rules.ts, event-store.ts, called from recorder/park-records.ts), the feeds and the pushes
// (src/alerts/). Kept 48 hours.

export const EVENT_TYPES = [
  'ride-down',
  'ride-reopened',
  'wait-below',
  'wait-above',
  'park-opened',
  'park-closed',
  'park-hold',
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);

/** The bands a wait crosses for `wait-below` and `wait-above`, in minutes. */
export const WAIT_BANDS = [10, 20, 30, 45, 60] as const;

export const ParkEventSchema = z.object({
  /** Stable and unique: `<park>/<type>/<ride or park>/<at>`; the feeds' item id. */
  id: z.string(),
  type: EventTypeSchema,
  park: z.enum(PARK_SLUGS),
  /** The sample that shows it (Unix ms). */
  at: z.unixMs(),
  /** The ride, null for park events. */
  ride: z.nullable(z.object({ id: z.int(), name: z.string() })),
  /** The ride's posted wait now and its 30-minute forecast (null: closed, or a park event). */
  waitNow: z.nullable(minutes),
  forecast: z.nullable(minutes),
  /** `wait-below` / `wait-above`: the band crossed. */
  band: z.optional(z.int()),
  /** `ride-reopened`: how long it was down; `ride-down`: how long so far. */
  downMinutes: z.optional(minutes),
  /** `ride-down`: the reopen odds (null: nothing to rest them on) and how many outages they rest on. */
  reopenWithin: z.optional(z.nullable(ReopenWithinSchema)),
  outages: z.optional(z.int().check(z.minimum(0))),
  /** `park-hold`: how many rides closed in the one sample. */
  ridesClosed: z.optional(z.int().check(z.minimum(0))),
});

/**
 * Which side of each band every ride is on, for the bands' hysteresis (event-rules.ts): by ride id,
 * the bands its wait is above. Of the park's local `date`; a ride not listed has not been seen open that day.
 */
export const BandSidesSchema = z.object({
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  rides: z.record(z.string(), z.array(z.int())),
});

/** Stored at `events/<slug>`: the park's events of the last 48 hours, newest first. */
export const ParkEventsSchema = z.object({
  version: z.literal(1),
  events: z.array(ParkEventSchema),
  /** Added with the rules: older records lack it, and the bands start again from the next sample. */
  sides: z.optional(BandSidesSchema),
});

export type EventType = z.output<typeof EventTypeSchema>;
export type ParkEvent = z.output<typeof ParkEventSchema>;
export type ParkEvents = z.output<typeof ParkEventsSchema>;
export type BandSides = z.output<typeof BandSidesSchema>;

/** Where the store keeps a park's events, in the `wait-times` store. */
export const parkEventsKey = (slug: string) => `events/${slug}`;
