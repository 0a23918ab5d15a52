import * as z from '../../platform/zod-mini.ts';
import { minutes } from '../park-snapshot-schemas.ts';

// Down rides (docs/outages.md): a park's outages of one local day, stored by the recorder beside the
// day record, and the reopen odds served with each ride that is down. INTERFACE shared by the
// write side (outage-rules.ts, reopen-odds.ts, outage-store.ts) and the read side (day/history.ts).

/** Why an outage stopped being watched before the ride reopened. */
export const CensorSchema = z.enum(['closing', 'gap', 'day-end']);

/** How a past outage ended, in the basis: the ride open again, or why it stopped being watched. */
const EndSchema = z.enum(['open', 'closing', 'gap', 'day-end']);

/** One outage of one ride: `to` null while it lasts; `censored` set when it was cut off unseen. */
export const OutageSchema = z.object({
  ride: z.string(),
  from: z.unixMs(),
  to: z.nullable(z.unixMs()),
  minutes,
  censored: z.nullable(CensorSchema),
});

/** Stored at `outages/<slug>/<YYYY-MM-DD>`: the day's outages and park holds so far. */
export const DayOutagesSchema = z.object({
  version: z.literal(1),
  date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  updatedAt: z.unixMs(),
  outages: z.array(OutageSchema),
  /** Sample times at which 5 or more rides closed at once (a park hold: no outage). */
  holds: z.array(z.unixMs()),
  /** The day's published hours as the rules read them (null: unknown): the odds' part of the day. */
  hours: z.optional(z.nullable(z.object({ opensAt: z.unixMs(), closesAt: z.unixMs() }))),
});

/** The chance, rounded to 5 %, that a ride down so far reopens within 15, 30 and 60 minutes. */
export const ReopenWithinSchema = z.strictObject({
  '15': z.number().check(z.minimum(0), z.maximum(1)),
  '30': z.number().check(z.minimum(0), z.maximum(1)),
  '60': z.number().check(z.minimum(0), z.maximum(1)),
});

/** One elapsed bucket of a park's reopen table: the odds and what they rest on, or null. */
export const ReopenBucketSchema = z.object({
  elapsed: minutes,
  reopenWithin: z.nullable(ReopenWithinSchema),
  outages: z.int().check(z.minimum(0)),
  scope: z.enum(['park', 'all parks']),
  /** The odds by the part of the day the ride is down in (reopen-odds.ts `oddsFor`); absent in older tables. */
  phases: z.optional(
    z.object({
      opening: z.nullable(ReopenWithinSchema),
      day: z.nullable(ReopenWithinSchema),
      closing: z.nullable(ReopenWithinSchema),
    }),
  ),
});

/** Stored at `reopen-odds/<slug>`: rebuilt by the recorder once per local day. */
export const ReopenTableSchema = z.object({
  version: z.literal(1),
  builtAt: z.unixMs(),
  buckets: z.array(ReopenBucketSchema),
});

const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * Stored at `outage-basis/<slug>`, the recorder's own (outage-store.ts): what the rules and the odds
 * need of past days, rebuilt on the first poll of each local day so that a poll reads one record.
 */
export const OutageBasisSchema = z.object({
  version: z.literal(1),
  /** The park-local date it was built on. */
  builtOn: localDate,
  /** The last recorded days (at most 7), oldest first: the half hours each ride open that day was closed in. */
  closedHalfHours: z.array(
    z.object({ date: localDate, rides: z.record(z.string(), z.array(z.int().check(z.minimum(0), z.maximum(47)))) }),
  ),
  /**
   * The outages of the last 90 days, by day: `outages`, each [minutes, how it ended, minutes from the
   * opening to its start, from its start to the closing (null: hours unknown)]; bases built before
   * have only the minutes of those that ended with the ride open (`ended`) and of the censored.
   */
  durations: z.array(
    z.object({
      date: localDate,
      ended: z.array(minutes),
      censored: z.array(minutes),
      outages: z.optional(z.array(z.tuple([minutes, EndSchema, z.nullable(z.int()), z.nullable(z.int())]))),
    }),
  ),
});

export type OutageBasis = z.output<typeof OutageBasisSchema>;
export type Censor = z.output<typeof CensorSchema>;
export type Outage = z.output<typeof OutageSchema>;
export type DayOutages = z.output<typeof DayOutagesSchema>;
export type ReopenWithin = z.output<typeof ReopenWithinSchema>;
export type ReopenBucket = z.output<typeof ReopenBucketSchema>;
export type ReopenTable = z.output<typeof ReopenTableSchema>;

/** Where the stores keep them, in the `wait-times` store. */
export const dayOutagesKey = (slug: string, date: string) => `outages/${slug}/${date}`;
export const reopenTableKey = (slug: string) => `reopen-odds/${slug}`;
export const outageBasisKey = (slug: string) => `outage-basis/${slug}`;
