import * as z from '../../platform/zod-mini.ts';
import { PARK_SLUGS } from '../parks.ts';

// A park's published schedule from ThemeParks.wiki (`GET /v1/entity/{id}/schedule`): the upstream
// rows, the rows as stored in Blobs (times decoded to Unix ms), the public day in our answers and
// the body of GET /api/parks.

/** Row types besides `OPERATING` (the public day); ThemeParks.wiki has no `CLOSED`. */
const EXTRA_TYPES = ['TICKETED_EVENT', 'PRIVATE_EVENT', 'EXTRA_HOURS', 'INFO'] as const;
export const SCHEDULE_TYPES = ['OPERATING', ...EXTRA_TYPES] as const;
/** A schedule is today through today + 30 days, about 2 rows a day; more is not a schedule. */
export const MAX_SCHEDULE_ROWS = 400;

const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
/** ISO 8601 with the park's offset, as the upstream writes it ("2026-04-15T09:00:00-04:00"). */
const offsetTime = z.iso.datetime({ offset: true });

/** One upstream row; `purchases` and unknown keys are ignored. */
export const UpstreamScheduleRowSchema = z
  .object({
    date: localDate,
    type: z.enum(SCHEDULE_TYPES),
    openingTime: offsetTime,
    closingTime: offsetTime,
    description: z.optional(z.nullable(z.string())),
  })
  .check(
    // A known upstream fault on past-midnight days (project notes): such a row says nothing usable.
    z.refine((row) => Date.parse(row.closingTime) > Date.parse(row.openingTime), 'closing is not after opening'),
  );

/** The payload around the rows; each row is checked on its own, so one bad row never costs the park. */
export const UpstreamScheduleSchema = z.object({ schedule: z.array(z.unknown()) });

/** One row as kept: park-local date of its opening, its type and description, times in Unix ms. */
export const ScheduleRowSchema = z.object({
  date: localDate,
  type: z.enum(SCHEDULE_TYPES),
  description: z.nullable(z.string()),
  opensAt: z.unixMs(),
  closesAt: z.unixMs(),
});

/** Stored in Blobs (`wait-times` store, `hours/<slug>`): the last good schedule of one park. */
export const StoredScheduleSchema = z.object({
  fetchedAt: z.unixMs(),
  rows: z.array(ScheduleRowSchema).check(z.maxLength(MAX_SCHEDULE_ROWS)),
});

export const ParkHoursExtraSchema = z
  .strictObject({
    type: z
      .enum(EXTRA_TYPES)
      .check(
        z.describe(
          'As ThemeParks.wiki types it: `TICKETED_EVENT` (e.g. Early Entry, Extended Evening, Halloween Horror Nights: a separate ticket or a resort guest benefit), `EXTRA_HOURS` (early entry for some guests), `PRIVATE_EVENT`, `INFO`. Never `OPERATING`: those rows make the public day.',
        ),
      ),
    description: z
      .nullable(z.string())
      .check(z.describe('What it is, as published ("Early Entry", "Extended Evening"); null when none is given.')),
    opensAt: z.unixMs().check(z.describe('Unix ms of its start.')),
    closesAt: z.unixMs().check(z.describe('Unix ms of its end (may be after the next local midnight).')),
  })
  .check(z.meta({ id: 'ParkHoursExtra', description: 'Published hours outside the public day, for some guests.' }));

export const ParkHoursSchema = z
  .strictObject({
    opensAt: z.unixMs().check(z.describe('Unix ms of the public opening (the earliest `OPERATING` row of the day).')),
    closesAt: z
      .unixMs()
      .check(
        z.describe(
          'Unix ms of the public closing (the latest `OPERATING` row of the day); may be after the next local midnight.',
        ),
      ),
    extras: z
      .array(ParkHoursExtraSchema)
      .check(
        z.describe(
          "The day's other published hours (early entry, extended evenings, ticketed events), including the previous day's that run past midnight, by start time. Not open to every guest: never count them as the public day.",
        ),
      ),
  })
  .check(
    z.meta({
      id: 'ParkHours',
      description:
        'The park\'s published public day from ThemeParks.wiki (credit: "Park hours: ThemeParks.wiki"). From local midnight until a previous day\'s past-midnight closing this is still that previous day, so `opensAt` can be before local midnight.',
    }),
  );

export type ScheduleType = (typeof SCHEDULE_TYPES)[number];
export type ScheduleRow = z.output<typeof ScheduleRowSchema>;
export type StoredSchedule = z.output<typeof StoredScheduleSchema>;
export type ParkHours = z.output<typeof ParkHoursSchema>;
/** The public day's opening and closing alone (Unix ms): what the forecaster and the recorder read of `ParkHours`. */
export type DayHours = Pick<ParkHours, 'opensAt' | 'closesAt'>;
export type ParkHoursExtra = z.output<typeof ParkHoursExtraSchema>;

export const ParkTodaySchema = z
  .strictObject({
    slug: z.enum(PARK_SLUGS).check(z.describe('The park slug every other endpoint accepts as `park`.')),
    name: z.string().check(z.describe('The park as named here.')),
    timeZone: z.string().check(z.describe("The park's IANA time zone.")),
    date: localDate.check(z.describe("The park's local date now (YYYY-MM-DD).")),
    hours: z
      .nullable(ParkHoursSchema)
      .check(z.describe('The public day now belongs to; null when unknown (never means closed).')),
    openNow: z
      .nullable(z.boolean())
      .check(
        z.describe(
          'Whether the answer was made (its `Date` header) between `hours.opensAt` (included) and `hours.closesAt` (excluded); null when the hours are unknown. Compare the times yourself for another moment.',
        ),
      ),
  })
  .check(z.meta({ id: 'ParkToday' }));

export const ParkListSchema = z
  .strictObject({
    hoursSource: z
      .literal('themeparks.wiki')
      .check(
        z.describe('Where the hours come from. Credit it wherever they are shown: "Park hours: ThemeParks.wiki".'),
      ),
    parks: z.array(ParkTodaySchema).check(z.describe('Every park the API follows, by slug.')),
  })
  .check(z.meta({ id: 'ParkList' }));

export type ParkToday = z.output<typeof ParkTodaySchema>;
export type ParkList = z.output<typeof ParkListSchema>;
