import * as z from '../../platform/zod-mini.ts';
import { minutes } from '../park-snapshot-schemas.ts';
import { PARK_SLUGS } from '../parks.ts';
import { SourceSchema } from '../wait-times-schemas.ts';

// What the recorder served, kept to be graded once the park's day is over, and the grades: the
// records of the scorecard (docs/accuracy.md).

/** Minutes ahead at which every served forecast is graded: the 30-minute `forecast`, the outlook at 60 and 120. */
export const GRADED_HORIZONS = [30, 60, 120] as const;
export type GradedHorizon = (typeof GRADED_HORIZONS)[number];

const localDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * One ride at one recorder poll, as stored (a tuple, to keep a park-day small): the wait now
 * (persistence), the forecasts at 30, 60 and 120 minutes, the usual wait at each target half hour
 * (null: not learned), and the best time served then (null: none). Decoded by `decodeServed`.
 */
export const StoredServedSchema = z.tuple([
  minutes,
  minutes,
  minutes,
  minutes,
  z.nullable(minutes),
  z.nullable(minutes),
  z.nullable(minutes),
  z.nullable(z.unixMs()),
  z.nullable(minutes),
]);

/**
 * Stored (`archive/<slug>/<date>`, beside the day record): every poll of one park-local day, by
 * column: one `times` axis, each ride's served forecasts in step with it (null: closed then).
 */
export const ServedDayRecordSchema = z
  .object({
    version: z.literal(1),
    date: localDate,
    times: z.array(z.unixMs()),
    rides: z.record(z.string(), z.object({ name: z.string(), served: z.array(z.nullable(StoredServedSchema)) })),
  })
  .check(
    z.refine(
      (day) => Object.values(day.rides).every((ride) => ride.served.length === day.times.length),
      'every ride has one entry per time',
    ),
  );
export type ServedDayRecord = z.output<typeof ServedDayRecordSchema>;

/** One ride at one poll, decoded: what was served and the references it is graded against. */
export interface ServedForecast {
  at: number;
  /** The wait posted then: persistence's forecast for every horizon. */
  wait: number;
  forecasts: Record<GradedHorizon, number>;
  /** The profile's usual wait at each target half hour; null where not learned. */
  usual: Record<GradedHorizon, number | null>;
  bestTime: { at: number; wait: number } | null;
}

/**
 * Sums over the graded forecasts of one park-day at one horizon, so that any window is a sum:
 * `absError` of |forecast − actual|, `error` of forecast − actual, the same absolute errors of
 * persistence and of the usual day, and the counts within 5 and 10 minutes.
 */
export const HorizonSumsSchema = z.object({
  n: z.int().check(z.minimum(0)),
  absError: z.number(),
  error: z.number(),
  absErrorPersistence: z.number(),
  absErrorUsual: z.number(),
  within5: z.int().check(z.minimum(0)),
  within10: z.int().check(z.minimum(0)),
});
export type HorizonSums = z.output<typeof HorizonSumsSchema>;

/**
 * Sums over the best times served on one park-day: `atBest` of the wait at the recommended half
 * hour, `restMean` of the mean of the rest of that day's waits, `regret` of the minutes above the
 * day's lowest wait after the advice. `belowRestOfDay` = 1 − atBest ÷ restMean.
 */
export const BestTimeSumsSchema = z.object({
  n: z.int().check(z.minimum(0)),
  atBest: z.number(),
  restMean: z.number(),
  regret: z.number(),
});
export type BestTimeSums = z.output<typeof BestTimeSumsSchema>;

export const GRADES_PREFIX = 'grades/';
export const gradesKeyOf = (slug: string, date: string) => `${GRADES_PREFIX}${slug}/${date}`;

/** Stored (`grades/<slug>/<date>`): one finished park-day, graded once. */
export const ParkDayGradesSchema = z.object({
  version: z.literal(1),
  park: z.string(),
  date: localDate,
  gradedAt: z.unixMs(),
  horizons: z.object({ 30: HorizonSumsSchema, 60: HorizonSumsSchema, 120: HorizonSumsSchema }),
  bestTime: BestTimeSumsSchema,
});
export type ParkDayGrades = z.output<typeof ParkDayGradesSchema>;

// GET /api/accuracy: the scorecard published from the grades (docs/contract.md).

/** What the service serves at a horizon now: its model, or "no change" where the model is measured worse (issue 44, point 4). */
export const ForecastBasisSchema = z.enum(['model', 'persistence']).check(
  z.meta({
    id: 'ForecastBasis',
    description:
      "What the service serves at this horizon now: `model` (its own forecast) or `persistence` (the wait now, served at 30 minutes where the model's last 28 graded days gave `skillHigh` below 0 with at least 300 graded, until its `skillLow` rises above 0). The row's figures always grade the model's own forecast. Always `model` at 60 and 120 minutes and in `pooled`.",
  }),
);

export type ForecastBasis = z.output<typeof ForecastBasisSchema>;

/**
 * Stored (`basis/<slug>`, written by the grading job, read by the recorder and a visitor's refresh):
 * what the park's 30-minute `forecast` serves, decided from the scorecard's 28-day row with
 * hysteresis (forecast-basis.ts), and the row it was decided on.
 */
export const BasisRecordSchema = z.object({
  version: z.literal(1),
  park: z.string(),
  horizon30: z.enum(['model', 'persistence']),
  /** When `horizon30` last changed (or was first decided). */
  since: z.unixMs(),
  /** The grading run that wrote this record. */
  decidedAt: z.unixMs(),
  /** The newest graded date of the 28-day window decided on; null while nothing is graded. */
  through: z.nullable(localDate),
  n: z.int().check(z.minimum(0)),
  skillLow: z.nullable(z.number()),
  skillHigh: z.nullable(z.number()),
});
export type BasisRecord = z.output<typeof BasisRecordSchema>;

const meanMinutes = (description: string) => z.nullable(z.number()).check(z.describe(description));
const share = (description: string) =>
  z.nullable(z.number().check(z.minimum(0), z.maximum(1))).check(z.describe(description));
const skillValue = (description: string) => z.nullable(z.number().check(z.maximum(1))).check(z.describe(description));

export const AccuracyRowSchema = z
  .strictObject({
    minutes: z.literal(GRADED_HORIZONS).check(z.describe('How far ahead the graded forecasts looked, in minutes.')),
    n: z
      .int()
      .check(z.minimum(0), z.describe('How many forecasts were graded (one per open ride per 5-minute sample).')),
    mae: meanMinutes('Mean absolute error of the served forecasts, in minutes (one decimal); null when `n` is 0.'),
    bias: meanMinutes(
      'Mean of forecast minus actual, in minutes (one decimal): above 0, the forecasts ran high; null when `n` is 0.',
    ),
    maePersistence: meanMinutes(
      'Mean absolute error of "no change" (the wait posted at issue) over the same cases, in minutes; null when `n` is 0.',
    ),
    maeUsual: meanMinutes(
      "Mean absolute error of the usual day (the ride's usual wait at the target half hour) over the same cases, in minutes; null when `n` is 0.",
    ),
    within5: share('Share of forecasts within 5 minutes of the actual wait (three decimals); null when `n` is 0.'),
    within10: share('Share of forecasts within 10 minutes of the actual wait (three decimals); null when `n` is 0.'),
    skill: skillValue(
      '1 − mae ÷ min(maePersistence, maeUsual), three decimals: above 0, the forecasts were closer than the better of "no change" and the usual day; 0.12 means 12 % closer. Null when `n` is under 30 or both references were exact.',
    ),
    skillLow: skillValue(
      "Lower end of a 95 % interval of `skill`: a bootstrap over the window's park-days (1,000 resamples, fixed seed, so the same grades give the same interval). Null with `skill`, or with a single graded day.",
    ),
    skillHigh: skillValue('Upper end of the same 95 % interval.'),
    basis: ForecastBasisSchema,
    note: z.optional(z.string()).check(z.describe('Why `skill` (or its interval) is null, in words.')),
  })
  .check(
    z.meta({
      id: 'AccuracyRow',
      description:
        'The forecasts served at one horizon over a window, graded against the posted wait that followed (sums over park-days, so a window is their sum).',
    }),
  );
export type AccuracyRow = z.output<typeof AccuracyRowSchema>;

export const BestTimeAccuracySchema = z
  .strictObject({
    n: z.int().check(z.minimum(0), z.describe('How many best times served were graded.')),
    belowRestOfDay: z
      .nullable(z.number().check(z.maximum(1)))
      .check(
        z.describe(
          "How far the wait at the recommended half hour fell below the mean of the rest of that day's waits, as a share (three decimals): 0.25 means a quarter lower; below 0, the advice was worse than an average moment. Null when `n` is 0.",
        ),
      ),
    regretMinutes: meanMinutes(
      "Mean minutes by which the wait at the recommended half hour exceeded the day's lowest wait after the advice (one decimal); null when `n` is 0.",
    ),
  })
  .check(z.meta({ id: 'BestTimeAccuracy', description: 'The best times served ("when to ride"), graded.' }));

export const ParkAccuracySchema = z
  .strictObject({
    park: z.enum(PARK_SLUGS).check(z.describe('The park slug.')),
    days: z
      .int()
      .check(z.minimum(0), z.describe("How many of the window's days were graded at this park (0: none yet).")),
    horizons: z.array(AccuracyRowSchema).check(z.describe('One row per horizon: 30, 60 and 120 minutes.')),
    bestTime: BestTimeAccuracySchema,
  })
  .check(z.meta({ id: 'ParkAccuracy', description: "One park's graded forecasts over a window." }));

const windowDate = (description: string) =>
  z.nullable(localDate).check(z.describe(`${description} (YYYY-MM-DD, park-local); null while nothing is graded.`));

export const AccuracyWindowSchema = z
  .strictObject({
    days: z.literal([7, 28]).check(z.describe('The window: the last 7 or 28 graded dates.')),
    from: windowDate('The first date of the window'),
    to: windowDate('The newest date graded at any park'),
    parks: z
      .array(ParkAccuracySchema)
      .check(z.describe('Every park asked for, graded or not, in the order of GET /api/parks.')),
    pooled: z
      .array(AccuracyRowSchema)
      .check(
        z.describe('The same rows over the parks of `parks` together: sums of their park-days, never across horizons.'),
      ),
  })
  .check(z.meta({ id: 'AccuracyWindow', description: 'The graded park-days of one window, per park and pooled.' }));

export const AccuracySchema = z
  .strictObject({
    generatedAt: z
      .nullable(z.unixMs())
      .check(
        z.describe(
          'Unix ms when the newest grades behind this answer were computed (a grading run); null while nothing is graded.',
        ),
      ),
    truth: z.string().check(z.describe('What a forecast was graded against, in words.')),
    samplingMinutes: z
      .int()
      .check(z.minimum(1), z.describe('Minutes between the recorded samples the truth is taken from.')),
    source: SourceSchema,
    windows: z.array(AccuracyWindowSchema).check(z.describe('The last 7 and the last 28 graded days.')),
  })
  .check(
    z.meta({
      id: 'Accuracy',
      description:
        'How good the forecasts served here were: every forecast of posted waits graded once its park-day ended, per park and horizon, against "no change" and the usual day.',
    }),
  );
export type Accuracy = z.output<typeof AccuracySchema>;
export type ParkAccuracy = z.output<typeof ParkAccuracySchema>;
export type AccuracyWindow = z.output<typeof AccuracyWindowSchema>;
