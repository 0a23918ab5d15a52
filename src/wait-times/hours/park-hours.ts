import { getConfig } from '../../platform/config.ts';
import type { AfterAnswer } from '../../platform/http.ts';
import { relayCache } from '../../platform/relay-cache.ts';
import { readRecord, writeRecord } from '../../platform/store.ts';
import { HOUR_MS, MINUTE_MS } from '../../platform/time-units.ts';
import { dayBoundsOf, localDateOf, previousDate } from '../local-time.ts';
import type { Park } from '../parks.ts';
import { type DayHours, type ParkHours, type ScheduleRow, StoredScheduleSchema } from './park-hours-schemas.ts';
import { fetchParkSchedule } from './themeparks-wiki.ts';

/**
 * Published hours barely change (two captures a day apart agreed on every hour), and one fetch holds
 * 31 days: each park's schedule is fetched at most every 4 hours across all instances (shared
 * storage is read before every fetch), about 6 requests per park per day, and a copy up to 48 hours
 * old still knows today. After a failure the provider is left alone for 10 minutes.
 */
export const PARK_HOURS_TIMING = {
  freshForMs: 4 * HOUR_MS,
  fallbackMaxAgeMs: 48 * HOUR_MS,
  backoffMs: 10 * MINUTE_MS,
};

const hoursKey = (slug: string) => `hours/${slug}`;

const relay = relayCache<Park, ScheduleRow[]>({
  label: 'Park hours',
  timing: PARK_HOURS_TIMING,
  keyOf: (park) => park.slug,
  fetch: (park) => {
    const config = getConfig();
    const userAgent = `site-api park hours (+${config.SITE_URL})`;
    return fetchParkSchedule(config.PARK_HOURS_UPSTREAM_URL, park.themeParksWikiId, { userAgent });
  },
  async readStored(park) {
    const stored = await readRecord('wait-times', hoursKey(park.slug), StoredScheduleSchema);
    return stored && { fetchedAt: stored.fetchedAt, value: stored.rows };
  },
  writeStored: (park, { fetchedAt, value }) =>
    writeRecord('wait-times', hoursKey(park.slug), StoredScheduleSchema, { fetchedAt, rows: value }),
});

/**
 * The park's public day at `now` (default: the clock) from its cached ThemeParks.wiki schedule, or
 * null when unknown: no row for the day, or the provider slow, down or answering garbage with no
 * copy younger than 48 hours. Never throws. With `later` (the platform's `waitUntil`) storing a
 * fetched schedule finishes after the answer.
 */
export async function parkHoursToday(
  park: Park,
  { now, later }: { now?: number | undefined; later?: AfterAnswer | undefined } = {},
): Promise<ParkHours | null> {
  try {
    const { value } = await relay.get(park, { later });
    return currentDayOf(value, now ?? Date.now(), park.timezone);
  } catch {
    return null; // the relay has logged why
  }
}

/** Whether the park is open at `now` by its public day; null when the hours are unknown. */
export function isOpenAt(hours: ParkHours | null, now: number): boolean | null {
  return hours && hours.opensAt <= now && now < hours.closesAt;
}

/**
 * The recorder polls a park from this long before its published opening until this long after
 * its closing: the window in which its waits can change.
 */
export const RECORDING_MARGIN_MS = 30 * MINUTE_MS;

/** Whether `now` is inside the park's recording window; null when the hours are unknown. */
export function isInRecordingWindow(hours: DayHours | null, now: number): boolean | null {
  return hours && now >= hours.opensAt - RECORDING_MARGIN_MS && now <= hours.closesAt + RECORDING_MARGIN_MS;
}

/** Forgets the schedules kept in memory (tests start each case cold). */
export function resetParkHoursMemory(): void {
  relay.reset();
}

/**
 * The public day that `now` belongs to: the previous local date's while its closing after midnight
 * is still ahead (a park open until 01:00 is still in that day at 00:30), else today's.
 */
export function currentDayOf(rows: readonly ScheduleRow[], now: number, timeZone: string): ParkHours | null {
  const today = localDateOf(now, timeZone);
  const previous = publicDayOf(rows, previousDate(today), timeZone);
  return previous && now < previous.closesAt ? previous : publicDayOf(rows, today, timeZone);
}

/**
 * The public day of a park-local `date`: its `OPERATING` rows (the earliest opening, the latest
 * closing), with every other row of that date, and of the previous date running past its midnight,
 * as extras by start time. Null without an `OPERATING` row: a date the schedule does not list is
 * unknown, never closed. Pure.
 */
export function publicDayOf(rows: readonly ScheduleRow[], date: string, timeZone: string): ParkHours | null {
  const operating = rows.filter((row) => row.date === date && row.type === 'OPERATING');
  if (operating.length === 0) return null;
  const { startsAt } = dayBoundsOf(date, timeZone);
  const yesterday = previousDate(date);
  const extras = new Map<string, ParkHours['extras'][number]>();
  for (const { type, description, opensAt, closesAt, date: rowDate } of rows) {
    if (type === 'OPERATING' || !(rowDate === date || (rowDate === yesterday && closesAt > startsAt))) continue;
    extras.set(`${type} ${description} ${opensAt} ${closesAt}`, { type, description, opensAt, closesAt });
  }
  return {
    opensAt: Math.min(...operating.map((row) => row.opensAt)),
    closesAt: Math.max(...operating.map((row) => row.closesAt)),
    extras: [...extras.values()].sort((a, b) => a.opensAt - b.opensAt || a.closesAt - b.closesAt),
  };
}
