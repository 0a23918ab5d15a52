import type { AfterAnswer } from '../../platform/http.ts';
import { localDateOf } from '../local-time.ts';
import { PARKS, type Park } from '../parks.ts';
import { isOpenAt, parkHoursToday } from './park-hours.ts';
import type { ParkHours, ParkList } from './park-hours-schemas.ts';

/** The list is cached this long at most: `openNow` of a park may change with any minute. */
export const PARK_LIST_MAX_AGE_SECONDS = 300;

/**
 * Every park with its hours and whether it is open now, and how long the answer may be cached
 * (5 minutes, never past the next opening or closing of a park). Parks whose hours cannot be had
 * are listed with `hours: null`; the list itself never fails.
 */
export async function getParkList({ later }: { later?: AfterAnswer | undefined } = {}) {
  const at = Date.now();
  const hours = await Promise.all(PARKS.map((park) => parkHoursToday(park, { now: at, later })));
  const body = parkListBody(
    PARKS.map((park, index) => ({ park, hours: hours[index] ?? null })),
    at,
  );
  const changes = body.parks.flatMap(({ hours }) => (hours ? [hours.opensAt, hours.closesAt] : []));
  const nextChange = Math.min(...changes.filter((time) => time > at));
  const untilChange = Math.ceil((nextChange - at) / 1000);
  return { body, maxAgeSeconds: Math.max(1, Math.min(PARK_LIST_MAX_AGE_SECONDS, untilChange)) };
}

/**
 * The list body at `at` for each park's hours (null: unknown). Pure (the OpenAPI example runs it).
 * `at` itself is not in the body, so that the answer (and its ETag) changes only when the hours do.
 */
export function parkListBody(entries: readonly { park: Park; hours: ParkHours | null }[], at: number): ParkList {
  return {
    hoursSource: 'themeparks.wiki',
    parks: entries.map(({ park, hours }) => ({
      slug: park.slug,
      name: park.name,
      timeZone: park.timezone,
      date: localDateOf(at, park.timezone),
      hours,
      openNow: isOpenAt(hours, at),
    })),
  };
}
