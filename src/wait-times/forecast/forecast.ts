import { MINUTE_MS } from '../../platform/time-units.ts';
import type { HistorySample } from '../park-snapshot-schemas.ts';
import type { Trend } from '../wait-times-schemas.ts';
import { expectedWait, type ParkMoment, toStep } from './outlook.ts';

/** How far ahead the forecast looks. */
export const FORECAST_HORIZON_MS = 30 * MINUTE_MS;
/** A change smaller than this is noise in posted waits, which move in 5-minute steps. */
const TREND_THRESHOLD_MINUTES = 5;

/**
 * The trend against the wait about 30 minutes earlier: `null` when the ride was closed then,
 * `undefined` without an earlier sample (both `flat`).
 */
export function trendOf(now: { wait: number; open: boolean }, earlier: number | null | undefined): Trend {
  if (!now.open || earlier === null || earlier === undefined) return 'flat';
  const change = now.wait - earlier;
  if (change >= TREND_THRESHOLD_MINUTES) return 'up';
  return change <= -TREND_THRESHOLD_MINUTES ? 'down' : 'flat';
}

/**
 * The wait 30 minutes after `at`, from the outlook's model (outlook.ts): at this horizon the wait
 * now plus the change the profile learned for this ride at this local half hour and wait level;
 * persistence until it has learned. `null` when closed.
 */
export function forecastOf(
  context: ParkMoment,
  ride: { id: number | string; wait: number; open: boolean },
): number | null {
  if (!ride.open) return null;
  const to = context.at + FORECAST_HORIZON_MS;
  // At 30 minutes the model does not use the park's ratio (outlook.ts, BLEND): 1 is neutral.
  return toStep(expectedWait({ ...context, parkRatio: 1 }, { id: String(ride.id), wait: ride.wait }, to));
}

/**
 * Persistence as the 30-minute `forecast` serves it: the wait now in 5-minute steps (what
 * `forecastOf` gives before anything is learned), `null` when closed.
 */
export function persistenceOf(ride: { wait: number; open: boolean }): number | null {
  return ride.open ? toStep(ride.wait) : null;
}

/** Trend (against `earlier`, the sample about 30 minutes before) and forecast of one ride as GET /api/wait-times answers them. */
export function trendAndForecastOf(
  context: ParkMoment & { earlier: HistorySample | null },
  ride: { id: number | string; wait: number; open: boolean },
): { trend: Trend; forecast: number | null } {
  return { trend: trendOf(ride, context.earlier?.waits[String(ride.id)]), forecast: forecastOf(context, ride) };
}
