import { MINUTE_MS } from '../../platform/time-units.ts';
import type { DayRecord } from '../day/history-schemas.ts';
import {
  type BestTimeSums,
  GRADED_HORIZONS,
  type GradedHorizon,
  type HorizonSums,
  type ServedForecast,
} from './accuracy-schemas.ts';

/**
 * The one grading definition (docs/accuracy.md): each served forecast against the recorded wait
 * at its target time, summed per horizon, and each best time against the rest of the day. Pure;
 * the grading job (grade-days.ts) and the backtest's error arithmetic (scripts/backtest/replay.ts)
 * use it.
 */

/** Truth is the recorded sample nearest the target time, at most this far from it. */
export const TRUTH_WITHIN_MS = 5 * MINUTE_MS;

/**
 * The wait recorded nearest `at` (the earlier of two as near), at most 5 minutes away: undefined
 * when nothing was recorded that near, null when the ride was closed then. `times` ascending.
 */
export function recordedNear(times: readonly number[], waits: readonly (number | null)[], at: number) {
  let [low, high] = [0, times.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((times[middle] ?? 0) <= at) low = middle + 1;
    else high = middle - 1;
  }
  // `high`: the last time at or before `at`; `low`: the first after it.
  const before = times[high];
  const after = times[low];
  const distance = (time: number | undefined) => (time === undefined ? Number.POSITIVE_INFINITY : Math.abs(time - at));
  const index = distance(before) <= distance(after) ? high : low;
  return distance(times[index]) <= TRUTH_WITHIN_MS ? (waits[index] ?? null) : undefined;
}

/** One forecast's errors against what happened: its own, and those of persistence and of the usual day. */
export interface ForecastErrors {
  absError: number;
  /** Forecast − actual: positive when the forecast was too long. */
  error: number;
  absErrorPersistence: number;
  /** The usual wait's, or persistence's where nothing is usual (as the backtest scores it). */
  absErrorUsual: number;
}

/** The errors of one forecast made when the wait was `wait`, against `actual`. */
export function forecastErrors(
  { forecast, wait, usual }: { forecast: number; wait: number; usual: number | null },
  actual: number,
): ForecastErrors {
  const error = forecast - actual;
  return {
    absError: Math.abs(error),
    error,
    absErrorPersistence: Math.abs(wait - actual),
    absErrorUsual: Math.abs((usual ?? wait) - actual),
  };
}

export const noHorizonSums = (): HorizonSums => ({
  n: 0,
  absError: 0,
  error: 0,
  absErrorPersistence: 0,
  absErrorUsual: 0,
  within5: 0,
  within10: 0,
});

/** `sums` with one more graded forecast. */
export function addErrors(sums: HorizonSums, errors: ForecastErrors): HorizonSums {
  return {
    n: sums.n + 1,
    absError: sums.absError + errors.absError,
    error: sums.error + errors.error,
    absErrorPersistence: sums.absErrorPersistence + errors.absErrorPersistence,
    absErrorUsual: sums.absErrorUsual + errors.absErrorUsual,
    within5: sums.within5 + Number(errors.absError <= 5),
    within10: sums.within10 + Number(errors.absError <= 10),
  };
}

/** A ride's recorded day: the day record's `times` and this ride's waits (null: closed). */
export type RecordedRide = { times: readonly number[]; waits: readonly (number | null)[] };

/**
 * The best-time check of one served forecast: the wait recorded at the advice, the mean and the
 * lowest of the ride's open waits recorded after the serving poll until the end of the day.
 * Undefined when no best time was served, nothing open was recorded at the advice, or nothing after.
 */
export function bestTimeCheck(served: ServedForecast, ride: RecordedRide) {
  if (served.bestTime === null) return undefined;
  const atBest = recordedNear(ride.times, ride.waits, served.bestTime.at);
  if (atBest === null || atBest === undefined) return undefined;
  const rest = ride.waits.filter(
    (wait, index): wait is number => wait !== null && (ride.times[index] ?? 0) > served.at,
  );
  if (rest.length === 0) return undefined;
  const restMean = rest.reduce((sum, wait) => sum + wait, 0) / rest.length;
  return { atBest, restMean, regret: Math.max(0, atBest - Math.min(...rest)) };
}

/**
 * A park-day graded: every served forecast of a ride open then against the day record (a ride
 * closed or not recorded within 5 minutes of the target is not graded at that horizon), and every
 * best time served. Targets past the day's last sample go ungraded.
 */
export function gradeDay(
  served: ReadonlyMap<string, readonly ServedForecast[]>,
  day: DayRecord,
): { horizons: Record<GradedHorizon, HorizonSums>; bestTime: BestTimeSums } {
  const horizons = { 30: noHorizonSums(), 60: noHorizonSums(), 120: noHorizonSums() };
  const bestTime: BestTimeSums = { n: 0, atBest: 0, restMean: 0, regret: 0 };
  for (const [id, forecasts] of served) {
    const recorded = day.rides[id];
    if (!recorded) continue;
    const ride = { times: day.times, waits: recorded.waits };
    for (const forecast of forecasts) {
      for (const horizon of GRADED_HORIZONS) {
        const actual = recordedNear(ride.times, ride.waits, forecast.at + horizon * MINUTE_MS);
        if (actual === null || actual === undefined) continue;
        const errors = forecastErrors(
          { forecast: forecast.forecasts[horizon], wait: forecast.wait, usual: forecast.usual[horizon] },
          actual,
        );
        horizons[horizon] = addErrors(horizons[horizon], errors);
      }
      const check = bestTimeCheck(forecast, ride);
      if (!check) continue;
      bestTime.n += 1;
      bestTime.atBest += check.atBest;
      bestTime.restMean += check.restMean;
      bestTime.regret += check.regret;
    }
  }
  return { horizons, bestTime };
}
