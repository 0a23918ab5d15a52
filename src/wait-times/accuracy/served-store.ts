import { deleteRecords, listKeys, readRecord, writeRecord } from '../../platform/store.ts';
import { expiredKeys } from '../day/day-store.ts';
import { localDateOf } from '../local-time.ts';
import type { Park } from '../parks.ts';
import { type ServedDayRecord, ServedDayRecordSchema, type ServedForecast } from './accuracy-schemas.ts';
import type { ServedPoll, StoredServed } from './served-forecasts.ts';

/**
 * What the recorder served, per park and local day, in the `wait-times` store:
 * `archive/<slug>/<YYYY-MM-DD>`, appended at each poll (recorder/park-records.ts, the one writer)
 * and kept `DAYS_KEPT` days like the day record: the hourly grading reads a finished day, and
 * GET /api/wait-times/days serves its 30-minute forecasts beside the waits (docs/accuracy.md). Tuples stay in here: readers get `ServedForecast`s.
 */

export const ARCHIVE_PREFIX = 'archive/';
const prefixOf = (slug: string) => `${ARCHIVE_PREFIX}${slug}/`;
const keyOf = (slug: string, date: string) => `${prefixOf(slug)}${date}`;

/** The stored served forecasts of a park-day, or null. */
export function readServedDay(slug: string, date: string): Promise<ServedDayRecord | null> {
  return readRecord('wait-times', keyOf(slug, date), ServedDayRecordSchema);
}

/**
 * The day with one more poll: a ride new today is null before it, a ride not open now null at it.
 * A poll at or before the day's last time changes nothing (a repeated write).
 */
export function appendPoll(day: ServedDayRecord, poll: ServedPoll): ServedDayRecord {
  const last = day.times.at(-1);
  if (last !== undefined && poll.at <= last) return day;
  const rides: ServedDayRecord['rides'] = {};
  for (const id of new Set([...Object.keys(day.rides), ...poll.rides.keys()])) {
    const now = poll.rides.get(id);
    const before = day.rides[id];
    rides[id] = {
      name: now?.name ?? before?.name ?? id,
      served: [...(before?.served ?? day.times.map(() => null)), now?.served ?? null],
    };
  }
  return { version: 1, date: day.date, times: [...day.times, poll.at], rides };
}

/** Appends a poll to its park-day; the first write of a day also deletes the park's archives older than `DAYS_KEPT` days. */
export async function archiveServed(park: Pick<Park, 'slug' | 'timezone'>, poll: ServedPoll): Promise<void> {
  const date = localDateOf(poll.at, park.timezone);
  const stored = await readServedDay(park.slug, date);
  const day = appendPoll(stored ?? { version: 1, date, times: [], rides: {} }, poll);
  if (day === stored) return;
  await writeRecord('wait-times', keyOf(park.slug, date), ServedDayRecordSchema, day);
  if (stored) return;
  // A new day: the archives older than DAYS_KEPT days go.
  const old = expiredKeys(await listKeys('wait-times', prefixOf(park.slug)), prefixOf(park.slug), date);
  if (old.length > 0) await deleteRecords('wait-times', old);
}

/** Every archived park-day as `{ slug, date }` (one list). */
export async function archivedDays(): Promise<{ slug: string; date: string }[]> {
  const keys = await listKeys('wait-times', ARCHIVE_PREFIX);
  return keys.flatMap((key) => {
    const [slug, date] = key.slice(ARCHIVE_PREFIX.length).split('/');
    return slug && date ? [{ slug, date }] : [];
  });
}

/** One stored entry as what was served. */
export function decodeServed(at: number, [wait, f30, f60, f120, u30, u60, u120, bestAt, bestWait]: StoredServed) {
  const bestTime = bestAt === null || bestWait === null ? null : { at: bestAt, wait: bestWait };
  return {
    at,
    wait,
    forecasts: { 30: f30, 60: f60, 120: f120 },
    usual: { 30: u30, 60: u60, 120: u120 },
    bestTime,
  } satisfies ServedForecast;
}

/** A park-day's served forecasts by ride id, in time order (only the polls where the ride was open). */
export function servedByRide(day: ServedDayRecord): Map<string, ServedForecast[]> {
  return new Map(
    Object.entries(day.rides).map(([id, ride]) => [
      id,
      ride.served.flatMap((entry, index) => {
        const at = day.times[index];
        return entry === null || at === undefined ? [] : [decodeServed(at, entry)];
      }),
    ]),
  );
}
