import * as z from '../../platform/zod-mini.ts';
import { BUCKETS_PER_DAY } from '../forecast/wait-profile-schemas.ts';
import { ParkHoursSchema } from '../hours/park-hours-schemas.ts';
import { CensorSchema, OutageSchema, ReopenBucketSchema, ReopenWithinSchema } from '../outages/outage-schemas.ts';
import { minutes } from '../park-snapshot-schemas.ts';
import { PARK_SLUGS } from '../parks.ts';
import { MAX_WAIT_MINUTES, SourceSchema } from '../wait-times-schemas.ts';

// A park's local day of posted waits: the record kept in Blobs (`day/<slug>/<date>`) and the body of the history.

/** One sample per 5-minute slot of UTC time: a 25-hour local day (clocks going back) has 300. */
export const MAX_DAY_SAMPLES = 300;
/** Rides kept in a day record, as in the forecaster's profile. */
export const MAX_DAY_RIDES = 100;

const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * Stored: one park's samples of one local day, by column (one `times` axis, each ride's waits in
 * step with it) so that a day of a 60-ride park stays near 60 KB. `null`: closed or not listed.
 */
export const DayRecordSchema = z
  .object({
    version: z.literal(1),
    date: localDate,
    times: z.array(z.unixMs()).check(z.maxLength(MAX_DAY_SAMPLES)),
    rides: z.record(z.string(), z.object({ name: z.string(), waits: z.array(z.nullable(minutes)) })),
  })
  .check(
    z.refine((day) => Object.keys(day.rides).length <= MAX_DAY_RIDES, `at most ${MAX_DAY_RIDES} rides`),
    z.refine(
      (day) => Object.values(day.rides).every((ride) => ride.waits.length === day.times.length),
      'every ride has one wait per time',
    ),
  );

export const CrowdWordSchema = z.enum(['quieter', 'usual', 'busier']).check(
  z.meta({
    id: 'CrowdWord',
    description:
      "`quieter` when today's waits are below 85 % of the usual at the same hours, `busier` above 115 %, otherwise `usual`.",
  }),
);

export const CrowdLevelSchema = z
  .strictObject({
    level: z
      .nullable(CrowdWordSchema)
      .check(z.describe('Today against a usual day, in a word; null until there are enough comparisons.')),
    ratio: z
      .nullable(z.number().check(z.minimum(0)))
      .check(
        z.describe(
          "Sum of today's posted waits divided by the sum of the usual waits for the same rides at the same half hours (1 = a usual day, 1.2 = waits 20 % longer), two decimals; null until there are enough comparisons.",
        ),
      ),
    comparisons: z
      .int()
      .check(
        z.minimum(0),
        z.describe(
          'How many ride readings of today were compared with a learned usual wait (at least 20 for a level).',
        ),
      ),
    rides: z.int().check(z.minimum(0), z.describe('How many different rides those readings cover.')),
    since: z.nullable(z.unixMs()).check(z.describe('Unix ms of the earliest reading compared; null without any.')),
  })
  .check(
    z.meta({
      id: 'CrowdLevel',
      description:
        "How busy the park is today: every posted wait sampled today against the same ride's usual wait in the same half hour of the day.",
    }),
  );

/** Half hours in an outlook: at most 50 (a 25-hour day; with opening hours, at most a day ahead). */
export const MAX_OUTLOOK_STEPS = 50;
const expectedWait = z.int().check(z.minimum(0), z.maximum(MAX_WAIT_MINUTES), z.multipleOf(5));

export const BestTimeSchema = z
  .strictObject({
    at: z.unixMs().check(z.describe('Unix ms of the half hour (one of `outlookTimes`).')),
    wait: expectedWait.check(z.describe('The wait expected then, in minutes (a multiple of 5).')),
  })
  .check(
    z.meta({
      id: 'BestTime',
      description:
        "The half hour still ahead today with the lowest expected wait (compared before rounding to 5 minutes): when to ride. Never at or after the park's closing time when its hours are known. Compare it with the wait now; an outlook, not a promise.",
    }),
  );

export const RideOutageSchema = z
  .strictObject({
    from: OutageSchema.shape.from.check(
      z.describe('Unix ms of the last sample the ride was open before it went down.'),
    ),
    to: OutageSchema.shape.to.check(
      z.describe(
        'Unix ms of the first sample it was open again; with `censored` set, of the last sample it was seen closed before watching stopped; null while it is still down.',
      ),
    ),
    minutes: OutageSchema.shape.minutes.check(
      z.describe('How long it was down, in minutes, from `from` to `to` (so far, while `to` is null).'),
    ),
    censored: z
      .nullable(CensorSchema)
      .check(
        z.describe(
          "Why watching stopped before the ride was seen open again: `closing` (the park's closing), `gap` (no sample for over 15 minutes), `day-end` (local midnight); null when it reopened or is still down.",
        ),
      ),
  })
  .check(
    z.meta({
      id: 'RideOutage',
      description:
        'One outage of the ride today: closed for at least two samples in a row while the park was open, after being open earlier in the day. Not an outage: a park hold (5 or more rides closing in one sample), the last 30 minutes before closing, a closure at the same half hour on most recent days (docs/outages.md).',
    }),
  );

export const RideDownSchema = z
  .strictObject({
    since: z.unixMs().check(z.describe('Unix ms the outage started: the last sample the ride was open.')),
    minutes: minutes.check(z.describe('Minutes down so far, up to the newest sample of the day (`updatedAt`).')),
    reopenWithin: z
      .nullable(ReopenWithinSchema)
      .check(
        z.describe(
          'The chance, 0 to 1 rounded to 5 %, that a ride down this long reopens within 15, 30 and 60 more minutes: of the moments recorded outages were seen down about as long (5, 15, 30, 60 or 120 minutes: the longest the ride has reached answers) in the same part of the day (its first 90 minutes, its last 2 hours, or between), the share followed by a reopening within each; a ride still down at closing counts as not back, and within the last hour before the park closes only the time left counts. Null when there are too few outages to say, or no odds could be read: never a guess. An estimate, not a promise.',
        ),
      ),
    outages: ReopenBucketSchema.shape.outages.check(
      z.describe(
        'How many recorded outages the odds rest on (or, with `reopenWithin` null, were too few); 0 when no odds could be read.',
      ),
    ),
    scope: z
      .nullable(ReopenBucketSchema.shape.scope)
      .check(
        z.describe(
          "Whose outages: `park` (this park's), `all parks` (pooled, where this park has fewer than 24 outages that lasted this long); null when no odds table could be read or the ride has been down less than the shortest bucket.",
        ),
      ),
  })
  .check(
    z.meta({
      id: 'RideDown',
      description:
        'The ride is down now: an outage (see RideOutage) still running at the newest sample, with its odds of reopening soon.',
    }),
  );

export const RideDaySchema = z
  .strictObject({
    name: z.string().check(z.describe('Ride name as the provider spells it (as in GET /api/wait-times).')),
    waits: z
      .array(z.nullable(minutes))
      .check(
        z.describe(
          'Posted wait in minutes at each of `times` (same length and order); null while the ride was closed.',
        ),
      ),
    usual: z
      .array(z.nullable(minutes))
      .check(
        z.length(BUCKETS_PER_DAY),
        z.describe(
          "The ride's usual wait in minutes for each half hour of the park's local day: index 0 is 00:00–00:29, 1 is 00:30–00:59, … 47 is 23:30–23:59 (wall clock, `timeZone`). Learned from the service's own samples over past days of the same kind (a day the park closes by 19:00 against such days, any other day against the others); null where not learned yet.",
        ),
      ),
    outlook: z
      .array(z.nullable(expectedWait))
      .check(
        z.maxLength(MAX_OUTLOOK_STEPS),
        z.describe(
          "Expected posted wait in minutes at each of `outlookTimes` (same length and order), a multiple of 5: the ride's latest wait carried forward with how its wait usually changes through the day, pulled toward its usual wait scaled by how busy the park is today; before the park opens (hours known), its usual wait. Null where the usual wait for that half hour is not learned yet (a new park, or hours the ride is usually closed) and, with the park's hours known, where the ride has often closed for the day by then on recent days; all null while the ride is closed now during the day (down for a while; with the park's hours unknown, possibly closed for the day). Empty after the park's closing time: closed for the day.",
        ),
      ),
    bestTime: z
      .nullable(BestTimeSchema)
      .check(
        z.describe(
          'When to ride: the lowest expected wait still ahead today, before closing; null when the whole `outlook` is null or empty (after closing: closed for the day).',
        ),
      ),
    down: z
      .nullable(RideDownSchema)
      .check(
        z.describe(
          'The ride is down now (an outage still running at the newest sample, the ride closed then), with its odds of reopening; null otherwise (open, closed for the night, or nothing recorded).',
        ),
      ),
    outages: z
      .array(RideOutageSchema)
      .check(z.describe("The ride's outages today, in order; the last has `to: null` while it is down.")),
  })
  .check(z.meta({ id: 'RideDay' }));

export const WaitHistorySchema = z
  .strictObject({
    park: z.enum(PARK_SLUGS).check(z.describe('The park slug asked for.')),
    date: localDate.check(z.describe("The park's current local date (YYYY-MM-DD) in `timeZone`.")),
    timeZone: z.string().check(z.describe("The park's IANA time zone; the day and the half hours follow it.")),
    dayStartsAt: z.unixMs().check(z.describe('Unix ms of local midnight at the start of `date`.')),
    dayEndsAt: z.unixMs().check(z.describe('Unix ms of the next local midnight (23 or 25 hours later on DST days).')),
    hours: z
      .nullable(ParkHoursSchema)
      .check(
        z.describe(
          'The park\'s published hours now (from ThemeParks.wiki: credit "Park hours: ThemeParks.wiki"); null when unknown (no published row for the day, or the provider unavailable), which never means closed.',
        ),
      ),
    updatedAt: z
      .nullable(z.unixMs())
      .check(
        z.describe('Unix ms of the newest sample (the last entry of `times`); null before the first one of the day.'),
      ),
    source: SourceSchema,
    times: z
      .array(z.unixMs())
      .check(
        z.maxLength(MAX_DAY_SAMPLES),
        z.describe('Unix ms of every sample taken so far today, ascending: about one per 5 minutes while anyone asks.'),
      ),
    outlookTimes: z
      .array(z.unixMs())
      .check(
        z.maxLength(MAX_OUTLOOK_STEPS),
        z.describe(
          "Unix ms of each half hour (:00 and :30 on the park's wall clock) the outlook covers: the steps of every ride's `outlook`. With the park's hours today known: after `updatedAt` (from the opening while the park has not opened yet) and before its closing time, which is after `dayEndsAt` when the park closes after midnight; empty after closing (every ride closed for the day). With the hours unknown: after `updatedAt` and before `dayEndsAt`. Empty before the first sample of the day.",
        ),
      ),
    crowd: CrowdLevelSchema,
    rides: z.array(RideDaySchema).check(z.describe('Rides seen today, sorted by name.')),
  })
  .check(z.meta({ id: 'WaitHistory' }));

export type DayRecord = z.output<typeof DayRecordSchema>;
export type CrowdLevel = z.output<typeof CrowdLevelSchema>;
export type RideDay = z.output<typeof RideDaySchema>;
export type BestTime = z.output<typeof BestTimeSchema>;
export type RideDown = z.output<typeof RideDownSchema>;
export type RideOutage = z.output<typeof RideOutageSchema>;
export type WaitHistory = z.output<typeof WaitHistorySchema>;
