import type { HistorySample } from '../park-snapshot-schemas.ts';
import { trendOf } from '../trend.ts';
import type { Trend } from '../wait-times-schemas.ts';
import { expectedChange } from './wait-profile.ts';
import { MAX_WAIT_MINUTES, type WaitProfile } from './wait-profile-schemas.ts';

/** Forecasts are posted-wait style: whole 5-minute steps. */
export const FORECAST_STEP_MINUTES = 5;
/** How far ahead the forecast looks. */
export const FORECAST_HORIZON_MS = 30 * 60_000;
/** Forecasts stop at the longest plausible posted wait. */
export const FORECAST_MAX_MINUTES = MAX_WAIT_MINUTES;

/** Rounds minutes to the nearest 5-minute step, within 0 and `FORECAST_MAX_MINUTES`. */
export function toStep(minutes: number): number {
  const stepped = Math.round(minutes / FORECAST_STEP_MINUTES) * FORECAST_STEP_MINUTES;
  return Math.min(FORECAST_MAX_MINUTES, Math.max(0, stepped));
}

/**
 * The projected wait about 30 minutes ahead: the wait now plus the change the park's profile
 * has learned for this ride at this local time and wait level. With nothing learned yet that is
 * persistence (the wait stays as it is), which is what a new park, ride or time slot gets.
 * `null` when the ride is closed. `localMinute` is the park-local minute of day of the reading.
 */
export function forecastOf(
  ride: { id: number | string; wait: number; open: boolean },
  profile: WaitProfile | null,
  localMinute: number,
): number | null {
  if (!ride.open) return null;
  return toStep(ride.wait + expectedChange(profile, String(ride.id), ride.wait, localMinute));
}

/**
 * Trend and forecast of one ride, exactly as GET /api/wait-times answers them (the backtest
 * replays real data through this same function).
 */
export function outlookOf(
  ride: { id: number | string; wait: number; open: boolean },
  earlier: HistorySample | null,
  profile: WaitProfile | null,
  localMinute: number,
): { trend: Trend; forecast: number | null } {
  return {
    trend: trendOf(ride, earlier?.waits[String(ride.id)]),
    forecast: forecastOf(ride, profile, localMinute),
  };
}
