import * as z from '../../platform/zod-mini.ts';
import { MAX_DAY_SAMPLES } from '../day/history-schemas.ts';
import { minutes } from '../park-snapshot-schemas.ts';
import { PARK_SLUGS } from '../parks.ts';
import { SourceSchema } from '../wait-times-schemas.ts';

// GET /api/wait-times/days: one finished park day as recorded, with what was served then (docs/accuracy.md).

const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const forecastMinutes = z.int().check(z.minimum(0));

export const ServedThenSchema = z
  .strictObject({
    at: z.unixMs().check(z.describe('Unix ms of the recorder poll that served this (one of `times` when it sampled).')),
    wait: minutes.check(z.describe('The posted wait then, in minutes: "no change", the reference.')),
    forecast: forecastMinutes.check(
      z.describe("The 30-minute `forecast` GET /api/wait-times served then, in minutes (the CSV's `forecast`)."),
    ),
    expected60: forecastMinutes.check(z.describe("The outlook's expected wait 60 minutes ahead, in minutes.")),
    expected120: forecastMinutes.check(z.describe("The outlook's expected wait 120 minutes ahead, in minutes.")),
    usual30: z
      .nullable(minutes)
      .check(z.describe("The ride's usual wait at the half hour 30 minutes ahead; null: not learned.")),
    usual60: z.nullable(minutes).check(z.describe('The usual wait 60 minutes ahead; null: not learned.')),
    usual120: z.nullable(minutes).check(z.describe('The usual wait 120 minutes ahead; null: not learned.')),
    bestTime: z
      .nullable(z.strictObject({ at: z.unixMs(), wait: forecastMinutes }))
      .check(z.describe('The best time served then (half hour, expected wait); null when none was served.')),
  })
  .check(
    z.meta({
      id: 'ServedThen',
      description:
        'What the service served for one ride at one poll, while the ride was open: the forecasts the scorecard grades.',
    }),
  );

export const RideOfDaySchema = z
  .strictObject({
    id: z.string().check(z.describe("The provider's ride id (the CSV's `ride_id`).")),
    name: z.string().check(z.describe('Ride name as the provider spells it.')),
    waits: z
      .array(z.nullable(minutes))
      .check(
        z.describe(
          "Posted wait in minutes at each of `times` (same length and order); null while closed (the CSV's -999).",
        ),
      ),
    served: z
      .array(ServedThenSchema)
      .check(
        z.describe(
          'What was served for this ride at each poll it was open, in time order; empty when nothing was archived.',
        ),
      ),
  })
  .check(z.meta({ id: 'RideOfDay' }));

export const ParkDaySchema = z
  .strictObject({
    park: z.enum(PARK_SLUGS).check(z.describe('The park slug asked for.')),
    date: localDate.check(z.describe("The park's local date asked for (YYYY-MM-DD in `timeZone`), finished.")),
    timeZone: z.string().check(z.describe("The park's IANA time zone; `date` and the CSV's times follow it.")),
    dayStartsAt: z.unixMs().check(z.describe('Unix ms of local midnight at the start of `date`.')),
    dayEndsAt: z.unixMs().check(z.describe('Unix ms of the next local midnight (23 or 25 hours later on DST days).')),
    source: SourceSchema,
    times: z
      .array(z.unixMs())
      .check(
        z.maxLength(MAX_DAY_SAMPLES),
        z.describe('Unix ms of every sample recorded that day, ascending: one per 5 minutes while the park was open.'),
      ),
    rides: z.array(RideOfDaySchema).check(z.describe('Rides recorded that day, sorted by name.')),
  })
  .check(
    z.meta({
      id: 'ParkDay',
      description:
        'One finished local day of a park as the service recorded it: every posted wait sampled, and what it served then (the data behind GET /api/accuracy).',
    }),
  );

export type ServedThen = z.output<typeof ServedThenSchema>;
export type ParkDay = z.output<typeof ParkDaySchema>;
