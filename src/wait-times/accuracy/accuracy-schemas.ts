import * as z from '../../platform/zod-mini.ts';
import { minutes } from '../park-snapshot-schemas.ts';

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
