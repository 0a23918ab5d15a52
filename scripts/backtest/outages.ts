import { MINUTE_MS } from '../../src/platform/time-units.ts';
import type { DayHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { fromWallClock, shiftDate } from '../../src/wait-times/local-time.ts';
import type { Duration } from '../../src/wait-times/outages/moment-shares.ts';
import {
  closedHalfHoursOf,
  OUTAGE_RULES,
  rideOutages,
  type SampleSeries,
  usuallyClosedOf,
} from '../../src/wait-times/outages/outage-rules.ts';
import type { Outage } from '../../src/wait-times/outages/outage-schemas.ts';
import { type Observation, parkDayOf, type RideSeries } from './replay.ts';

/**
 * TouringPlans down periods (-999 inside a ride's day) read with the service's outage rules
 * (src/wait-times/outages/outage-rules.ts), for `npm run backtest -- --outages`. TouringPlans posts
 * each ride at its own irregular times (about every 7 minutes), so each ride is judged on its own
 * observations: they are its samples (two closed observations in a row make an outage; a gap over
 * 15 minutes between two of them censors it), and "the same sample" of a park hold is the same
 * 5-minute slot of the rides' first closed observations.
 */

const SLOT_MS = 5 * MINUTE_MS;
const DAY_STARTS_AT_HOUR = 4;

/** A park's rides and, when given, its hours by park day. */
export interface OutagePark {
  code: string;
  name: string;
  timeZone: string;
  rides: readonly RideSeries[];
  hours?: ReadonlyMap<string, DayHours> | undefined;
}

/** One outage found, with the moments a visitor would have seen it down (its closed observations from the second on). */
export interface FoundOutage {
  day: string;
  outage: Outage;
  moments: number[];
  /** The park's opening that day (null: derived from the posts, not known ahead) and closing. */
  opensAt: number | null;
  closesAt: number;
}

export interface ParkOutages {
  code: string;
  name: string;
  training: string[];
  validation: string[];
  found: FoundOutage[];
  /** Park days whose hours came from the observations (no `--hours` row). */
  derivedHours: number;
  holds: number;
  /** The median minutes between a ride's observations on training days (the service's samples are 5 apart). */
  sampleMinutes: number;
}

/** The Unix time a park day (from 04:00) ends: 04:00 the next calendar day. */
const dayEndOf = (day: string, timeZone: string) =>
  fromWallClock(Date.parse(`${shiftDate(day, 1)}T0${DAY_STARTS_AT_HOUR}:00:00Z`), timeZone);

/** Each ride's observations by park day. */
function byDay(rides: readonly RideSeries[], timeZone: string): Map<string, Map<string, Observation[]>> {
  const days = new Map<string, Map<string, Observation[]>>();
  for (const ride of rides) {
    for (const observation of ride.observations) {
      const day = parkDayOf(observation.at, timeZone);
      const rideDays = days.get(day) ?? new Map<string, Observation[]>();
      const list = rideDays.get(ride.id) ?? [];
      list.push(observation);
      rideDays.set(ride.id, list);
      days.set(day, rideDays);
    }
  }
  return days;
}

/** 5-minute slots in which `holdRides` or more rides had their first closed observation after an open one. */
function holdSlotsOf(rides: ReadonlyMap<string, Observation[]>): Set<number> {
  const counts = new Map<number, number>();
  for (const observations of rides.values()) {
    const slots = new Set<number>();
    for (let index = 1; index < observations.length; index++) {
      const [before, now] = [observations[index - 1], observations[index]];
      if (before && now && before.wait !== null && now.wait === null && now.at - before.at <= OUTAGE_RULES.maxGapMs)
        slots.add(Math.floor(now.at / SLOT_MS));
    }
    for (const slot of slots) counts.set(slot, (counts.get(slot) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, rides]) => rides >= OUTAGE_RULES.holdRides).map(([slot]) => slot));
}

const seriesOf = (ride: string, observations: readonly Observation[]): SampleSeries => ({
  times: observations.map((observation) => observation.at),
  rides: { [ride]: { waits: observations.map((observation) => observation.wait) } },
});

/**
 * A park's outages in time order, its park days (those with a ride open) split in time as the
 * forecast backtest splits them: the first `trainShare` training, the rest validation.
 */
export function parkOutagesOf(park: OutagePark, trainShare: number): ParkOutages {
  const { timeZone } = park;
  const days = byDay(park.rides, timeZone);
  const parkDays = [...days]
    .filter(([, rides]) => [...rides.values()].some((list) => list.some((observation) => observation.wait !== null)))
    .map(([day]) => day)
    .sort();
  const trainCount = Math.floor(parkDays.length * trainShare);
  const found: FoundOutage[] = [];
  const closedDays = new Map<string, Record<string, number[]>[]>();
  let [derivedHours, holds] = [0, 0];
  const spacing: number[] = [];
  for (const [index, day] of parkDays.entries()) {
    const rides = days.get(day) ?? new Map<string, Observation[]>();
    for (const list of index < trainCount ? rides.values() : []) {
      for (let at = 1; at < list.length; at++)
        spacing.push(((list[at]?.at ?? 0) - (list[at - 1]?.at ?? 0)) / MINUTE_MS);
    }
    const all = [...rides.values()].flat().map((observation) => observation.at);
    // Without published hours the day is the span the rides were posted.
    const known = park.hours?.get(day);
    const hours = known ?? { opensAt: Math.min(...all), closesAt: Math.max(...all) + 1 };
    if (!known) derivedHours++;
    const holdSlots = holdSlotsOf(rides);
    holds += holdSlots.size;
    for (const [ride, observations] of rides) {
      const series = seriesOf(ride, observations);
      const history = closedDays.get(ride) ?? [];
      const usuallyClosed = usuallyClosedOf(history.slice(-OUTAGE_RULES.scheduledDays));
      const dayEndsAt = dayEndOf(day, timeZone);
      const outages = rideOutages(
        { ride, times: series.times, waits: observations.map((observation) => observation.wait) },
        {
          timeZone,
          hours,
          dayEndsAt,
          now: dayEndsAt,
          usuallyClosed,
          parkOpenAt: (at) => hours.opensAt <= at && at < hours.closesAt,
          isHold: (at) => holdSlots.has(Math.floor(at / SLOT_MS)),
        },
      );
      for (const outage of outages) {
        const until = outage.to ?? Number.POSITIVE_INFINITY;
        const closed = series.times.filter((at) => at > outage.from && (outage.censored ? at <= until : at < until));
        found.push({
          day,
          outage,
          moments: closed.slice(OUTAGE_RULES.closedSamples - 1),
          opensAt: known ? hours.opensAt : null,
          closesAt: hours.closesAt,
        });
      }
      history.push(closedHalfHoursOf(series, { timeZone, hours }));
      closedDays.set(ride, history);
    }
    // A ride not posted that day was not open: its history notes an empty day.
    for (const [ride, history] of closedDays) if (!rides.has(ride)) history.push({});
  }
  return {
    code: park.code,
    name: park.name,
    training: parkDays.slice(0, trainCount),
    validation: parkDays.slice(trainCount),
    found,
    derivedHours,
    holds,
    sampleMinutes: spacing.sort((a, b) => a - b)[spacing.length >> 1] ?? 5,
  };
}

/** Outages as the odds' durations (moment-shares.ts): one lost in a gap is censored; the closing or the day's end is "not back". */
export const durationsOf = (found: readonly FoundOutage[]): Duration[] =>
  found.map(({ outage, opensAt, closesAt }) => ({
    minutes: outage.minutes,
    reopened: outage.censored === null,
    lost: outage.censored === 'gap',
    sinceOpening: opensAt === null ? null : (outage.from - opensAt) / MINUTE_MS,
    toClosing: opensAt === null ? null : (closesAt - outage.from) / MINUTE_MS,
  }));

/**
 * Whether a ride seen down at `at` reopened within `horizon` minutes: 1 or 0, or undefined when
 * its outage stopped being watched (a gap, the data's end) before the horizon. Still down when the
 * park closed, it did not reopen for any visitor: 0.
 */
export function reopenedWithin(outage: Outage, at: number, horizon: number): 0 | 1 | undefined {
  const limit = at + horizon * MINUTE_MS;
  if (outage.to === null) return undefined;
  if (outage.censored === null) return outage.to <= limit ? 1 : 0;
  return outage.to >= limit || outage.censored === 'closing' ? 0 : undefined;
}
