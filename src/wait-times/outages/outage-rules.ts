import { HALF_HOUR_MINUTES, MINUTE_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { minuteOfDay } from '../local-time.ts';
import type { Censor, Outage } from './outage-schemas.ts';

/**
 * Down rides told from closures (docs/outages.md), pure. Queue-times says only open or closed, so a
 * ride is down when it was open earlier that day and is then closed for at least two samples in a
 * row while the park is open, unless the closure is a park hold (5 or more rides closing in the
 * same sample), falls in the last 30 minutes before closing, or is a daily scheduled closure.
 * `from` is the last open sample (the last moment the ride was seen running), `to` the first open
 * sample after it; `minutes` is `to − from`, or up to the newest closed sample while it lasts.
 */

export const OUTAGE_RULES = {
  /** Rides closing in one sample that make a park hold (weather, the park closing), not outages. */
  holdRides: 5,
  /** Closed samples in a row an outage needs: a single closed sample is a blip. */
  closedSamples: 2,
  /** Closures starting this close to the published closing are the night's, not outages. */
  beforeClosingMs: 30 * MINUTE_MS,
  /** A longer gap between samples stops watching: the outage is censored there. */
  maxGapMs: 15 * MINUTE_MS,
  /** A half hour is a ride's scheduled closure when it was closed in it on this many of the last `scheduledDays` recorded days. */
  scheduledOn: 4,
  scheduledDays: 7,
} as const;

/** A park's samples of one day by column (the day record's shape): `null` is closed or not listed. */
export interface SampleSeries {
  times: readonly number[];
  rides: Readonly<Record<string, { waits: readonly (number | null)[] }>>;
}

/** What the rules need besides the samples. */
export interface DayContext {
  timeZone: string;
  /** The park's public day; null when unknown (then the park counts open while any ride is). */
  hours: DayHours | null;
  /** The local midnight ending the day: an outage running then is censored `day-end`. */
  dayEndsAt: number;
  /** When the day is read (the newest poll): an outage closed at the newest sample runs on (`to` null). */
  now: number;
  /** Local half hours (0–47) each ride is usually closed in (`usuallyClosedOf`). */
  usuallyClosed?: Readonly<Record<string, readonly number[]>>;
}

/** One ride's samples, with what the park-level rules decided about each moment. */
export interface RideSamples {
  ride: string;
  times: readonly number[];
  waits: readonly (number | null)[];
}

/** The park-level facts a ride's closures are judged by. */
export interface ParkJudge extends DayContext {
  /** Whether the park is open at a sample time. */
  parkOpenAt: (at: number) => boolean;
  /** Whether a closure first seen at this sample time is part of a park hold. */
  isHold: (at: number) => boolean;
}

/** The local half hour (0–47) of a Unix time. */
export const halfHourOf = (at: number, timeZone: string): number =>
  Math.floor(minuteOfDay(at, timeZone) / HALF_HOUR_MINUTES);

/** Sample times at which `holdRides` or more rides went from open to closed (a park hold). */
export function holdTimesOf(series: SampleSeries): number[] {
  const { times } = series;
  const holds: number[] = [];
  for (let index = 1; index < times.length; index++) {
    if ((times[index] ?? 0) - (times[index - 1] ?? 0) > OUTAGE_RULES.maxGapMs) continue;
    let closing = 0;
    for (const { waits } of Object.values(series.rides)) {
      if (waits[index - 1] != null && waits[index] == null) closing++;
    }
    if (closing >= OUTAGE_RULES.holdRides) holds.push(times[index] ?? 0);
  }
  return holds;
}

/** The park open at a sample: by its hours when known, else while any ride is open in that sample. */
export function parkOpenOf(series: SampleSeries, hours: DayHours | null): (at: number) => boolean {
  if (hours) return (at) => hours.opensAt <= at && at < hours.closesAt;
  const open = new Set<number>();
  series.times.forEach((at, index) => {
    if (Object.values(series.rides).some(({ waits }) => waits[index] != null)) open.add(at);
  });
  return (at) => open.has(at);
}

/** A day's outages (by ride, then start) and park holds. Never throws on odd data: it finds fewer. */
export function outagesOfDay(series: SampleSeries, context: DayContext): { outages: Outage[]; holds: number[] } {
  const holds = holdTimesOf(series);
  const holdSet = new Set(holds);
  const judge: ParkJudge = {
    ...context,
    parkOpenAt: parkOpenOf(series, context.hours),
    isHold: (at) => holdSet.has(at),
  };
  const outages = Object.keys(series.rides)
    .sort()
    .flatMap((ride) => rideOutages({ ride, times: series.times, waits: series.rides[ride]?.waits ?? [] }, judge));
  return { outages, holds };
}

/** Minutes between two Unix times, rounded. */
const minutesBetween = (from: number, to: number) => Math.max(0, Math.round((to - from) / MINUTE_MS));

/**
 * One ride's outages over its own sample times (the backtest gives each TouringPlans ride its own):
 * each run of closed samples that follows an open one within `maxGapMs`, ended by the first open
 * sample, or censored at the park's closing (the last closed sample before it), at a gap (the last
 * closed sample before it) or at the day's end; still closed at the newest sample, it runs on.
 */
export function rideOutages(samples: RideSamples, judge: ParkJudge): Outage[] {
  const { ride, times, waits } = samples;
  const outages: Outage[] = [];
  const usual = new Set(judge.usuallyClosed?.[ride] ?? []);
  const at = (index: number) => times[index] ?? 0;
  for (let start = 1; start < times.length; start++) {
    const opensRun =
      waits[start - 1] != null && waits[start] == null && at(start) - at(start - 1) <= OUTAGE_RULES.maxGapMs;
    if (!opensRun) continue;
    // Walk the run: closed samples while the park is open and no gap cuts it.
    let end = start;
    let censored: Censor | null = null;
    let to: number | null = null;
    while (true) {
      const next = end + 1;
      if (next >= times.length) break;
      if (at(next) - at(end) > OUTAGE_RULES.maxGapMs) {
        censored = 'gap';
        break;
      }
      if (!judge.parkOpenAt(at(next))) {
        censored = 'closing';
        break;
      }
      if (waits[next] != null) {
        to = at(next);
        break;
      }
      end = next;
    }
    const closedSamples = end - start + 1;
    const [from, firstClosed] = [at(start - 1), at(start)];
    if (to === null && censored === null) {
      // Out of samples: the day is over, or watching stopped, or the ride is down now.
      if (judge.now >= judge.dayEndsAt) censored = 'day-end';
      else if (judge.now - at(end) > OUTAGE_RULES.maxGapMs) censored = 'gap';
    }
    start = end; // the next run starts after this one
    const closesAt = judge.hours?.closesAt;
    const qualifies =
      closedSamples >= OUTAGE_RULES.closedSamples &&
      judge.parkOpenAt(firstClosed) &&
      !judge.isHold(firstClosed) &&
      !(closesAt !== undefined && firstClosed >= closesAt - OUTAGE_RULES.beforeClosingMs) &&
      !usual.has(halfHourOf(firstClosed, judge.timeZone));
    if (!qualifies) continue;
    const until = to ?? at(end);
    outages.push({ ride, from, to: to ?? (censored ? until : null), minutes: minutesBetween(from, until), censored });
  }
  return outages;
}

/**
 * The local half hours in which each ride was closed while the park was open, after being open
 * earlier that day; a ride never open that day is absent (a day it did not run says nothing).
 */
export function closedHalfHoursOf(series: SampleSeries, context: Pick<DayContext, 'timeZone' | 'hours'>) {
  const parkOpenAt = parkOpenOf(series, context.hours);
  const closed: Record<string, number[]> = {};
  for (const [ride, { waits }] of Object.entries(series.rides)) {
    const first = waits.findIndex((wait) => wait != null);
    if (first < 0) continue;
    const halfHours = new Set<number>();
    for (let index = first + 1; index < series.times.length; index++) {
      const at = series.times[index] ?? 0;
      if (waits[index] == null && parkOpenAt(at)) halfHours.add(halfHourOf(at, context.timeZone));
    }
    closed[ride] = [...halfHours].sort((a, b) => a - b);
  }
  return closed;
}

/**
 * Each ride's scheduled closures: the half hours it was closed in on at least `scheduledOn` of the
 * last `scheduledDays` recorded days (newest last; a ride absent from a day was not open that day).
 */
export function usuallyClosedOf(
  days: readonly Readonly<Record<string, readonly number[]>>[],
): Record<string, number[]> {
  const counts = new Map<string, Map<number, number>>();
  for (const day of days.slice(-OUTAGE_RULES.scheduledDays)) {
    for (const [ride, halfHours] of Object.entries(day)) {
      const byHalfHour = counts.get(ride) ?? new Map<number, number>();
      for (const halfHour of new Set(halfHours)) byHalfHour.set(halfHour, (byHalfHour.get(halfHour) ?? 0) + 1);
      counts.set(ride, byHalfHour);
    }
  }
  const usual: Record<string, number[]> = {};
  for (const [ride, byHalfHour] of counts) {
    const halfHours = [...byHalfHour]
      .filter(([, days]) => days >= OUTAGE_RULES.scheduledOn)
      .map(([halfHour]) => halfHour);
    if (halfHours.length > 0) usual[ride] = halfHours.sort((a, b) => a - b);
  }
  return usual;
}
