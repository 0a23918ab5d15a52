/**
 * Units of time, each named with its unit: milliseconds (`_MS`) for Unix-ms arithmetic, minutes for
 * park-local clocks and the half-hour slots of a day. A domain duration is declared where it is
 * used, from these (`RELAY_FRESH_FOR_MS = 5 * MINUTE_MS`).
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const QUARTER_HOUR_MS = 15 * MINUTE_MS;
export const HALF_HOUR_MS = 30 * MINUTE_MS;
export const HOUR_MS = 60 * MINUTE_MS;
/** 24 hours. A park's local day is 23 or 25 hours long on DST days: `dayBoundsOf` (wait-times/local-time.ts). */
export const DAY_MS = 24 * HOUR_MS;

export const MINUTES_PER_HOUR = 60;
export const HALF_HOUR_MINUTES = 30;
export const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;
