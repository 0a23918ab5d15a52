import type { Trend } from './wait-times-schemas.ts';

/** A change smaller than this is noise in posted waits, which move in 5-minute steps. */
export const TREND_THRESHOLD_MINUTES = 5;

/**
 * The ride's trend against its wait about 30 minutes earlier. `earlier` is the earlier wait in
 * minutes, `null` when the ride was closed then, `undefined` when there is no earlier sample.
 */
export function trendOf(now: { wait: number; open: boolean }, earlier: number | null | undefined): Trend {
  if (!now.open || earlier === null || earlier === undefined) return 'flat';
  const change = now.wait - earlier;
  if (change >= TREND_THRESHOLD_MINUTES) return 'up';
  if (change <= -TREND_THRESHOLD_MINUTES) return 'down';
  return 'flat';
}
