/** Forecasts are posted-wait style: whole 5-minute steps. */
export const FORECAST_STEP_MINUTES = 5;

/** Rounds minutes to the nearest 5-minute step, never below 0. */
export function toStep(minutes: number): number {
  return Math.max(0, Math.round(minutes / FORECAST_STEP_MINUTES) * FORECAST_STEP_MINUTES);
}

/**
 * The projected wait about 30 minutes ahead. For now this is persistence (the wait stays as it
 * is), rounded to a 5-minute step; `null` when the ride is closed.
 */
export function forecastOf(now: { wait: number; open: boolean }): number | null {
  if (!now.open) return null;
  return toStep(now.wait);
}
