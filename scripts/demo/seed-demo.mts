import { gradeFinishedDays } from '../../src/wait-times/accuracy/grade-days.ts';
import { readDay } from '../../src/wait-times/day/day-store.ts';
import { publicDayOf } from '../../src/wait-times/hours/park-hours.ts';
import { scheduleRowsOf } from '../../src/wait-times/hours/themeparks-wiki.ts';
import { localDateOf, shiftDate } from '../../src/wait-times/local-time.ts';
import type { Park } from '../../src/wait-times/parks.ts';
import { ridesOf } from '../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../src/wait-times/queue-times-schemas.ts';
import { redatedSchedule, syntheticSchedule } from '../fake-park-hours.mts';
import { labelledPayload, movingWaits, withClosedRides } from '../fake-queue-times.mts';
import { type SimulatedPark, simulateDays } from './simulate-days.mts';

/**
 * `npm run demo`'s data: every park's last `DEMO_DAYS_BEFORE` local days and today so far, written
 * by the recorder's own write poll by poll (simulate-days.mts) from the demo's SYNTHETIC waits
 * (recorded payloads moved along a day shape, fake-queue-times.mts) and the hours the demo's fake
 * ThemeParks.wiki serves; then the finished days graded by the grading job's module. Two days
 * teach a half hour the 10 observations a forecast needs (forecast/wait-profile.ts), so from the
 * third the forecasts and outlooks move and the scorecard grades them against "no change".
 */

/** Finished days seeded before today: two to learn, a third on which the model forecasts. */
export const DEMO_DAYS_BEFORE = 3;
/**
 * The demo's wobble about the day shape (SYNTHETIC), a quarter of the fake's usual one: the forecast
 * learns a half hour's change as a running median, a small step per observation, and with the
 * usual noise three days moved 1 to 2 % of the 30-minute forecasts off the wait's 5-minute step;
 * with this one 11 to 14 % (EPCOT, measured), most where the day's curve is steep.
 */
export const DEMO_WOBBLE = 0.03;
/** Each past day's crowd against a usual day (SYNTHETIC), so that days differ a little. */
const PAST_CROWDS = [0.9, 1.1, 1] as const;

/**
 * Rides down in the demo (SYNTHETIC): queue-times ride id to the time it closed; the fake upstream
 * keeps them closed from then on, so the recorder records their outages itself.
 */
export type DownRides = ReadonlyMap<number, number>;

/** The demo's park: the labelled recording moved along the day shape, the fake's hours of each date. */
export function demoPark(park: Park, today: string, todayCrowd: number, down: DownRides = new Map()): SimulatedPark {
  const id = park.queueTimesId;
  const payload = labelledPayload(id);
  const crowdOn = (date: string) =>
    date === today ? todayCrowd : (PAST_CROWDS[Number(date.slice(8)) % PAST_CROWDS.length] ?? 1);
  return {
    park,
    snapshotAt: (at) => {
      const moved = movingWaits(payload, at, id, crowdOn(localDateOf(at, park.timezone)), DEMO_WOBBLE);
      const closed = [...down].filter(([, since]) => at >= since).map(([ride]) => ride);
      const served = closed.length > 0 ? withClosedRides(moved, closed) : moved;
      return { fetchedAt: at, rides: ridesOf(QueueTimesParkSchema.parse(served)) };
    },
    hoursOn: (date) => {
      // The schedule the fake serves when `date` is today: the same hours every day of the demo.
      const schedule = park.slug === 'magic-kingdom' ? redatedSchedule(date) : syntheticSchedule(park, date);
      return publicDayOf(scheduleRowsOf(schedule, park.name), date, park.timezone);
    },
  };
}

/**
 * Seeds one park up to `now`, from the day after its newest recorded one among the last
 * `DEMO_DAYS_BEFORE` (a demo restarted on a later day adds only the days it missed), returning the
 * polls written; false when it already has today's record (a restart the same day).
 */
export async function seedDemoPark(
  park: Park,
  now: number,
  todayCrowd: number,
  down?: DownRides,
): Promise<number | false> {
  const today = localDateOf(now, park.timezone);
  const dates = Array.from({ length: DEMO_DAYS_BEFORE + 1 }, (_, back) => shiftDate(today, -back));
  const recorded = await Promise.all(dates.map(async (date) => (await readDay(park.slug, date)) !== null));
  const missing = recorded.indexOf(true) === -1 ? dates.length : recorded.indexOf(true);
  if (missing === 0) return false;
  return simulateDays(demoPark(park, today, todayCrowd, down), { lastDate: today, days: missing, until: now });
}

/**
 * Polls a seeded park from its newest sample today up to `now`: seeding all parks takes minutes,
 * and a gap of over 15 minutes in a day would cut its outages short (docs/outages.md). Returns the
 * polls written.
 */
export async function catchUpDemoPark(park: Park, now: number, todayCrowd: number, down?: DownRides): Promise<number> {
  const today = localDateOf(now, park.timezone);
  const newest = (await readDay(park.slug, today))?.times.at(-1);
  if (newest === undefined) return 0;
  const simulated = demoPark(park, today, todayCrowd, down);
  return simulateDays(simulated, { lastDate: today, days: 1, until: now, after: newest });
}

/** Grades the seeded days that are over (the grading job's own step), returning how many. */
export async function gradeDemoDays(now: number): Promise<number> {
  const report = await gradeFinishedDays(now);
  if (report.failed.length > 0) console.warn(`Demo: grading failed: ${JSON.stringify(report.failed)}`);
  return report.graded.length;
}
