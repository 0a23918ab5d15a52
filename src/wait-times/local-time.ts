import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  MINUTES_PER_DAY,
  MINUTES_PER_HOUR,
  QUARTER_HOUR_MS,
} from '../platform/time-units.ts';

/**
 * Park-local wall-clock time and dates: wait patterns follow the park's clock (opening, parades,
 * closing) and a park's day runs from its own midnight, so the forecaster, the hours, the day record
 * and the recorder all work in each park's own time zone, DST included.
 */

const MAX_CACHED_OFFSETS = 20_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

/** The zone's UTC offset at `at` in milliseconds, read from its name ("GMT-04:00"; "GMT" at zero). */
function offsetFromName(at: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    formatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const [, sign = '+', hours = 0, minutes = 0] = /([+-])(\d+):(\d+)/.exec(name) ?? [];
  return (sign === '-' ? -1 : 1) * (Number(hours) * MINUTES_PER_HOUR + Number(minutes)) * MINUTE_MS;
}

/**
 * How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. Every zone changes its
 * offset on a quarter hour of UTC, so one `formatToParts` per quarter hour is exact; the backtest
 * calls this a few hundred thousand times.
 */
export function offsetAt(at: number, timeZone: string): number {
  const cache = offsets.get(timeZone) ?? new Map<number, number>();
  offsets.set(timeZone, cache);
  const quarter = Math.floor(at / QUARTER_HOUR_MS);
  let offset = cache.get(quarter);
  if (offset === undefined) {
    if (cache.size >= MAX_CACHED_OFFSETS) cache.clear();
    offset = offsetFromName(quarter * QUARTER_HOUR_MS, timeZone);
    cache.set(quarter, offset);
  }
  return offset;
}

/** Minutes since local midnight (0–1439) at Unix time `at` (ms) in an IANA time zone. */
export function minuteOfDay(at: number, timeZone: string): number {
  const minutes = Math.floor((at + offsetAt(at, timeZone)) / MINUTE_MS);
  return ((minutes % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}

/**
 * The Unix time (ms) of a local wall-clock reading given as if it were UTC. A reading that occurs
 * twice (clocks going back) resolves to the first; one that never occurs lands just after the jump.
 */
export function fromWallClock(wall: number, timeZone: string): number {
  const firstGuess = wall - offsetAt(wall, timeZone);
  const candidate = wall - offsetAt(firstGuess, timeZone);
  // In a gap neither guess reads `wall`; the later one is the reading moved past the jump.
  if (candidate + offsetAt(candidate, timeZone) !== wall) return Math.max(firstGuess, candidate);
  const earlier = candidate - HOUR_MS;
  return earlier + offsetAt(earlier, timeZone) === wall ? earlier : candidate;
}

/** The park-local calendar date (YYYY-MM-DD) at Unix ms `at`. */
export function localDateOf(at: number, timeZone: string): string {
  return new Date(at + offsetAt(at, timeZone)).toISOString().slice(0, 10);
}

/** Unix ms of the local midnights that start and end `date` (23 or 25 hours apart on DST days). */
export function dayBoundsOf(date: string, timeZone: string): { startsAt: number; endsAt: number } {
  const wall = Date.parse(`${date}T00:00:00Z`);
  return { startsAt: fromWallClock(wall, timeZone), endsAt: fromWallClock(wall + DAY_MS, timeZone) };
}

/** The calendar date before `date`. */
export function previousDate(date: string): string {
  return daysBefore(date, 1);
}

/** The calendar date `days` days before `date`. */
export function daysBefore(date: string, days: number): string {
  return shiftDate(date, -days);
}

/** A calendar date `days` away (dates are park-local labels: plain calendar arithmetic). */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
