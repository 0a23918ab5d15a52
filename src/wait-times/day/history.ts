import { RELAY_FRESH_FOR_MS } from '../../platform/relay-cache.ts';
import { dayKindOf } from '../forecast/day-kind.ts';
import { outlookTimesOf, parkRatioOf, rideOutlookOf } from '../forecast/outlook.ts';
import { blobsHistory, readDayProfile } from '../forecast/park-history.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { parkHoursToday } from '../hours/park-hours.ts';
import type { ParkHours } from '../hours/park-hours-schemas.ts';
import { dayBoundsOf, localDateOf } from '../local-time.ts';
import { periodStartOf } from '../park-answer.ts';
import { byName, type Park } from '../parks.ts';
import { crowdLevelOf, usualWaits } from './crowd-level.ts';
import { readDay } from './day-store.ts';
import type { DayRecord, WaitHistory } from './history-schemas.ts';

/** A recorder run stores its day records within seconds of the period's start; this leaves room. */
const RECORDER_RUN_MS = 30_000;

/**
 * The park's local day so far as the recorder wrote it, read and never written: the day record,
 * the park's hours (cached for hours, park-hours.ts; null: unknown) and the profile of the day's
 * kind (day-kind.ts) for the usual waits, outlook and best times. Cached until the recorder's next
 * write is due, never past local midnight.
 */
export async function getWaitHistory(park: Park): Promise<{ body: WaitHistory; maxAgeSeconds: number }> {
  const now = Date.now();
  const hours = await parkHoursToday(park);
  const [day, profile] = await Promise.all([
    orNull(readDay(park.slug, localDateOf(now, park.timezone))),
    orNull(readDayProfile(blobsHistory(park.slug), dayKindOf(hours, park.timezone))),
  ]);
  const body = waitHistoryBody(park, day, { profile, hours }, now);
  const nextWriteAt = periodStartOf(now) + RELAY_FRESH_FOR_MS + RECORDER_RUN_MS;
  const until = Math.min(nextWriteAt, body.dayEndsAt);
  return { body, maxAgeSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
}

/** Blobs is an aid: without it the day is empty and nothing is usual yet, but the answer stands. */
const orNull = <T>(read: Promise<T | null>) =>
  read.catch((error: Error) => {
    console.warn(`Blobs unavailable for wait history: ${error.message}`);
    return null;
  });

/**
 * The body for the park's local day at `now`: the day's samples (none when `day` is another date),
 * each ride's usual day from the profile, its outlook from the newest sample (or the opening) to
 * the closing, or to the end of the day while the hours are unknown, the crowd level and the park's
 * published hours (null: unknown). Pure (the OpenAPI example runs it).
 */
export function waitHistoryBody(
  park: Pick<Park, 'slug' | 'timezone'>,
  day: DayRecord | null,
  { profile, hours }: { profile: WaitProfile | null; hours: ParkHours | null },
  now: number,
): WaitHistory {
  const date = localDateOf(now, park.timezone);
  const { startsAt, endsAt } = dayBoundsOf(date, park.timezone);
  const today = day?.date === date ? day : null;
  const times = today?.times ?? [];
  const updatedAt = times.at(-1) ?? null;
  const latest = Object.entries(today?.rides ?? {}).map(([id, ride]) => ({
    id,
    ride,
    wait: ride.waits.at(-1) ?? null,
  }));
  const moment = { profile, timeZone: park.timezone, at: updatedAt ?? now };
  const context = { ...moment, hours, parkRatio: updatedAt === null ? 1 : parkRatioOf(moment, latest) };
  const outlookTimes = updatedAt === null ? [] : outlookTimesOf(context, endsAt);
  const rides = latest
    .map(({ id, ride, wait }) => ({
      ...ride,
      usual: usualWaits(profile, id),
      ...rideOutlookOf(context, { id, wait }, outlookTimes),
    }))
    .sort(byName);
  return {
    park: park.slug,
    date,
    timeZone: park.timezone,
    dayStartsAt: startsAt,
    dayEndsAt: endsAt,
    hours,
    updatedAt,
    source: 'queue-times.com',
    times,
    outlookTimes,
    crowd: crowdLevelOf(times, rides, park.timezone),
    rides,
  };
}
