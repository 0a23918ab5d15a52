import { daysBefore } from './local-time.ts';

/**
 * How long a park's per-day records live (the day record, the archive of served forecasts, the
 * outages): the last 400 local days, so that GET /api/wait-times/days can serve every finished day.
 */
export const DAYS_KEPT = 400;

/** Keys of a park's days older than `DAYS_KEPT` days before `date` (YYYY-MM-DD sorts in date order). */
export const expiredKeys = (keys: readonly string[], prefix: string, date: string): string[] =>
  keys.filter((key) => key < `${prefix}${daysBefore(date, DAYS_KEPT - 1)}`);
