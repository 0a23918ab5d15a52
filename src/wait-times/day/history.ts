import { RELAY_FRESH_FOR_MS } from '../../platform/relay-cache.ts';
import { dayKindOf } from '../forecast/day-kind.ts';
import { outlookTimesOf, parkRatioOf, rideOutlookOf } from '../forecast/outlook.ts';
import { blobsHistory, readDayProfile } from '../forecast/park-history.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { parkHoursToday } from '../hours/park-hours.ts';
import type { ParkHours } from '../hours/park-hours-schemas.ts';
import { dayBoundsOf, localDateOf } from '../local-time.ts';
import { downOf, outagesByRide, readDayOutages, readReopenTable, servedOutage } from '../outages/outage-reads.ts';
import type { DayOutages, ReopenTable } from '../outages/outage-schemas.ts';
import { periodStartOf } from '../park-answer.ts';
import { byName, type Park } from '../parks.ts';
import { crowdLevelOf, usualWaits } from './crowd-level.ts';
import { readDay } from './day-store.ts';
import type { DayRecord, WaitHistory } from './history-schemas.ts';

/** A recorder run stores its day records within seconds of the period's start; this leaves room. */
const RECORDER_RUN_MS = 30_000;

/**
 * The park's local day so far as the recorder wrote it, read and never written: the day record,
 * the park's hours (cached for hours, park-hours.ts; null: unknown), the profile of the day's
 * kind (day-kind.ts) for the usual waits, outlook and best times, and the day's outages with the
 * park's reopen odds: 4 Blobs reads at once per route-cache miss. Cached until the recorder's next
 * write is due, never past local midnight.
 */
export async function getWaitHistory(park: Park): Promise<{ body: WaitHistory; maxAgeSeconds: number }> {
  const now = Date.now();
  const date = localDateOf(now, park.timezone);
  const hours = await parkHoursToday(park);
  const [day, profile, outages, reopen] = await Promise.all([
    orNull(readDay(park.slug, date)),
    orNull(readDayProfile(blobsHistory(park.slug), dayKindOf(hours, park.timezone))),
    orNull(readDayOutages(park.slug, date)),
    orNull(readReopenTable(park.slug)),
  ]);
  const body = waitHistoryBody(park, day, { profile, hours, outages, reopen }, now);
  const nextWriteAt = periodStartOf(now) + RELAY_FRESH_FOR_MS + RECORDER_RUN_MS;
  const until = Math.min(nextWriteAt, body.dayEndsAt);
  return { body, maxAgeSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
}

/**
 * Blobs is an aid: without it the day is empty, nothing is usual yet and no ride is down, but the
 * answer stands.
 */
const orNull = <T>(read: Promise<T | null>) =>
  read.catch((error: Error) => {
    console.warn(`Blobs unavailable for wait history: ${error.message}`);
    return null;
  });

/** What the body rests on beside the day record; the outage records are optional (null: none). */
interface DayBasis {
  profile: WaitProfile | null;
  hours: ParkHours | null;
  outages?: DayOutages | null;
  reopen?: ReopenTable | null;
}

/**
 * The body for the park's local day at `now`: the day's samples (none when `day` is another date),
 * each ride's usual day from the profile, its outlook from the newest sample (or the opening) to
 * the closing, or to the end of the day while the hours are unknown, its outages today and, while
 * it is down, its odds of reopening, the crowd level and the park's published hours (null:
 * unknown). Pure (the OpenAPI example runs it).
 */
export function waitHistoryBody(
  park: Pick<Park, 'slug' | 'timezone'>,
  day: DayRecord | null,
  { profile, hours, outages = null, reopen = null }: DayBasis,
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
  const outagesOf = outagesByRide(outages?.date === date ? outages : null);
  const rides = latest
    .map(({ id, ride, wait }) => {
      const list = outagesOf.get(id) ?? [];
      // Down only while closed at the newest sample: an outage the record still shows running on a
      // ride open since is a write the record missed.
      const down = wait === null && updatedAt !== null ? downOf(list, reopen, { asOf: updatedAt, hours }) : null;
      return {
        ...ride,
        usual: usualWaits(profile, id),
        ...rideOutlookOf(context, { id, wait }, outlookTimes),
        down,
        outages: list.map(servedOutage),
      };
    })
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
