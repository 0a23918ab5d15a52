import type { HistorySample } from '../park-snapshot-schemas.ts';
import type { Trend } from '../wait-times-schemas.ts';
import { expectedChange } from './wait-profile.ts';
import { MAX_WAIT_MINUTES, type WaitProfile } from './wait-profile-schemas.ts';

/** How far ahead the forecast looks. */
export const FORECAST_HORIZON_MS = 30 * 60_000;
export const FORECAST_MAX_MINUTES = MAX_WAIT_MINUTES;
/** A change smaller than this is noise in posted waits, which move in 5-minute steps. */
const TREND_THRESHOLD_MINUTES = 5;

/** Rounds minutes to the nearest 5-minute step (posted-wait style), within 0 and the maximum. */
export function toStep(minutes: number): number {
  return Math.min(FORECAST_MAX_MINUTES, Math.max(0, Math.round(minutes / 5) * 5));
}

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
 * The wait about 30 minutes ahead: the wait now plus the change the profile learned for this
 * ride at this local minute and wait level; persistence until it has learned. `null` when closed.
 */
export function forecastOf(
  ride: { id: number | string; wait: number; open: boolean },
  profile: WaitProfile | null,
  localMinute: number,
): number | null {
  if (!ride.open) return null;
  return toStep(ride.wait + expectedChange(profile, String(ride.id), ride.wait, localMinute));
}

/** Trend and forecast of one ride as GET /api/wait-times answers them (the backtest replays this). */
export function outlookOf(
  ride: { id: number | string; wait: number; open: boolean },
  earlier: HistorySample | null,
  profile: WaitProfile | null,
  localMinute: number,
): { trend: Trend; forecast: number | null } {
  return { trend: trendOf(ride, earlier?.waits[String(ride.id)]), forecast: forecastOf(ride, profile, localMinute) };
}
