import { HOUR_MS, MINUTE_MS } from '../../src/platform/time-units.ts';
import { forecastErrors } from '../../src/wait-times/accuracy/grading.ts';
import {
  type Blend,
  chainedWait,
  expectedWait,
  type ForecastContext,
  outlookTimesOf,
  parkRatioOf,
  rideOutlookOf,
  toStep,
} from '../../src/wait-times/forecast/outlook.ts';
import { memoryHistory, recordSample } from '../../src/wait-times/forecast/park-history.ts';
import { bucketOf, usualWaitOf } from '../../src/wait-times/forecast/wait-profile.ts';
import type { DayHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { dayBoundsOf, localDateOf, minuteOfDay } from '../../src/wait-times/local-time.ts';
import type { HistorySample } from '../../src/wait-times/park-snapshot-schemas.ts';
import { type Split, type Sums, Tally } from './tally.ts';

/**
 * Replays one park through the service's own code in time order: each sample is recorded by
 * `recordSample` on an in-memory history, and each forecast is what GET /api/wait-times/history
 * would answer then. The model only sees the past; the future is read only to score.
 */

/** An observation stands for the posted wait this long (outcomes, the wait at the best time). */
export const MAX_AGE_MS = 15 * MINUTE_MS;
/** A park day runs from 04:00 (TouringPlans' files put times after midnight on the day before). */
const DAY_STARTS_AT_MS = 4 * HOUR_MS;

/** A posted wait as the upstream gave it; null: down or closed. */
export type Observation = { at: number; wait: number | null };
export type RideSeries = { id: string; name: string; observations: readonly Observation[] };
/** A park as the service samples it: each sample's waits by ride id (null: closed; missing: not listed). */
export type ParkSeries = { rides: readonly RideSeries[]; samples: readonly HistorySample[] };

export interface ReplayOptions {
  timeZone: string;
  /** Share of the park days, first in time, that are training (0–1). */
  trainShare: number;
  /** Minutes ahead to score. */
  horizons: readonly number[];
  /** `--fit`: stop at the first validation day, gathering fit rows (`Scoring`). */
  fitOnly?: boolean;
}

export const parkDayOf = (at: number, timeZone: string) => localDateOf(at - DAY_STARTS_AT_MS, timeZone);

/** Index of the last observation at or before `at`, or −1. */
function lastAtOrBefore(observations: readonly Observation[], at: number): number {
  let [low, high] = [0, observations.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((observations[middle]?.at ?? 0) <= at) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}

/**
 * The wait posted at `at`: the last observation at or before it (`nearest`: the nearest either
 * side), at most 15 minutes away; undefined when there is none, null when the ride was down.
 */
export function postedAt(observations: readonly Observation[], at: number, nearest = false): number | null | undefined {
  const index = lastAtOrBefore(observations, at);
  const found = [observations[index], nearest ? observations[index + 1] : undefined]
    .filter((seen): seen is Observation => seen !== undefined && Math.abs(seen.at - at) <= MAX_AGE_MS)
    .sort((a, b) => Math.abs(a.at - at) - Math.abs(b.at - at));
  return found[0]?.wait;
}

/**
 * The best-time check at one origin, of the advice as the widget gives it: the ride's `bestTime`
 * over the outlook's half hours (`outlookTimesOf`: to closing when the context has the day's hours), or now when the wait now is as short (the widget's "best now"),
 * against the mean of the open waits posted after the origin until local midnight. The wait at the
 * advice is the one posted nearest it; a best time after the ride's last open wait that day is a
 * failed advice and counts as no gain (`afterClose`, at the mean); `unverified`: down then, or
 * nothing posted near it. Undefined when nothing is posted after the origin.
 */
export function bestTimeCheck(context: ForecastContext, ride: RideSeries, wait: number): Sums | undefined {
  const { timeZone } = context;
  const origin = { at: context.at, wait };
  const { endsAt } = dayBoundsOf(localDateOf(origin.at, timeZone), timeZone);
  const waits = ride.observations
    .slice(lastAtOrBefore(ride.observations, origin.at) + 1, lastAtOrBefore(ride.observations, endsAt - 1) + 1)
    .filter((seen): seen is { at: number; wait: number } => seen.wait !== null);
  const lastOpen = waits.at(-1);
  if (lastOpen === undefined) return undefined;
  const times = outlookTimesOf(context, endsAt);
  const { bestTime } = rideOutlookOf(context, { id: ride.id, wait }, times);
  if (bestTime === null) return { checks: 1, noBestTime: 1 };
  const now = origin.wait <= bestTime.wait;
  const posted = now ? origin.wait : postedAt(ride.observations, bestTime.at, true);
  const afterClose = Number(!now && bestTime.at > lastOpen.at && typeof posted !== 'number');
  if (typeof posted !== 'number' && !afterClose) return { checks: 1, unverified: 1 };
  const restMean = waits.reduce((sum, { wait }) => sum + wait, 0) / waits.length;
  const atBest = typeof posted === 'number' ? posted : restMean;
  const scale = { now: origin.wait, lowest: Math.min(...waits.map(({ wait }) => wait)), lastOpenWait: lastOpen.wait };
  return { checks: 1, compared: 1, bestNow: Number(now), afterClose, atBest, restMean, ...scale };
}

export interface Scoring {
  /** Minutes ahead to score (or to gather fit rows at). */
  horizons: readonly number[];
  /** Gather BLEND's fit rows (`[outcome − wait, chained − wait, ratio·usual − wait]` per horizon) instead of scoring. */
  fitOnly?: boolean;
  /** The outlook's BLEND, when not the shipped one (leave one park out fits one per fold). */
  blend?: Blend;
  /**
   * The park's hours by park day (`parkDayOf`), as production knows them: they choose the profile
   * (the kind of day), teach each ride's closing and bound the outlook (a day without: hours unknown).
   */
  hours?: ReadonlyMap<string, DayHours> | undefined;
}

/**
 * A park replayed in time order, resumable: `run` goes on from where the last run stopped, so the
 * training days can gather fit rows before the validation days are scored with what they fitted.
 */
export class ParkReplay {
  readonly days: { training: string[]; validation: string[] };
  readonly tally = new Tally();
  readonly fitRows = new Map<number, [number, number, number][]>();
  private readonly history = memoryHistory();
  private readonly openedAt = new Map<string, number>();
  private readonly nextCheckAt = new Map<string, number>();
  private readonly park: ParkSeries;
  private readonly options: Pick<ReplayOptions, 'timeZone' | 'trainShare'>;
  private next = 0;
  private today = '';

  constructor(park: ParkSeries, options: Pick<ReplayOptions, 'timeZone' | 'trainShare'>) {
    [this.park, this.options] = [park, options];
    const { timeZone } = options;
    // Park days: those with a ride open (the TouringPlans samples go on around the clock).
    const open = park.samples.filter(({ waits }) => Object.values(waits).some((wait) => wait !== null));
    const allDays = [...new Set(open.map((sample) => parkDayOf(sample.at, timeZone)))].sort();
    const trainCount = Math.floor(allDays.length * options.trainShare);
    this.days = { training: allDays.slice(0, trainCount), validation: allDays.slice(trainCount) };
  }

  /** Replays the samples not replayed yet, up to the first validation day (`until: 'training'`) or the end. */
  async run(until: Split, scoring: Scoring): Promise<this> {
    const { timeZone } = this.options;
    const firstValidationDay = this.days.validation[0] ?? '~';
    for (const horizon of scoring.fitOnly ? scoring.horizons : []) {
      if (!this.fitRows.has(horizon)) this.fitRows.set(horizon, []);
    }
    for (; this.next < this.park.samples.length; this.next++) {
      const sample = this.park.samples[this.next];
      if (sample === undefined) break;
      const day = parkDayOf(sample.at, timeZone);
      const split: Split = day < firstValidationDay ? 'training' : 'validation';
      if (until === 'training' && split === 'validation') break;
      if (day !== this.today) {
        this.today = day;
        this.openedAt.clear();
        this.nextCheckAt.clear();
      }
      const hours = scoring.hours?.get(day) ?? null;
      // As production's recorder: the day's hours choose the profile and teach each ride's closing.
      const { profile } = await recordSample(this.history, sample, timeZone, { hours });
      const latest = Object.entries(sample.waits).map(([id, wait]) => ({ id, wait }));
      const moment = { profile, timeZone, at: sample.at };
      const context: ForecastContext = { ...moment, hours, parkRatio: parkRatioOf(moment, latest) };
      if (scoring.blend) context.blend = scoring.blend;
      for (const ride of this.park.rides) {
        const wait = sample.waits[ride.id];
        if (wait !== null && wait !== undefined) this.score(split, context, ride, wait, scoring);
      }
    }
    return this;
  }

  private score(split: Split, context: ForecastContext, ride: RideSeries, wait: number, scoring: Scoring): void {
    const { profile, timeZone, at, parkRatio } = context;
    const opened = this.openedAt.get(ride.id) ?? at;
    this.openedAt.set(ride.id, opened);
    const segment = at - opened < HOUR_MS ? 'first hour' : wait >= 40 ? 'wait ≥ 40' : 'rest';
    for (const horizon of scoring.horizons) {
      const to = at + horizon * MINUTE_MS;
      const outcome = postedAt(ride.observations, to);
      if (outcome === null || outcome === undefined) continue;
      const usual = usualWaitOf(profile, ride.id, bucketOf(minuteOfDay(to, timeZone)));
      if (scoring.fitOnly) {
        const chained = chainedWait(context, { id: ride.id, wait }, to);
        if (usual !== null) this.fitRows.get(horizon)?.push([outcome - wait, chained - wait, parkRatio * usual - wait]);
        continue;
      }
      const ours = toStep(expectedWait(context, { id: ride.id, wait }, to));
      // The errors as the service grades what it served (accuracy/grading.ts); the truth here is the backtest's own.
      const errors = forecastErrors({ forecast: ours, wait, usual }, outcome);
      const sums = {
        n: 1,
        ours: errors.absError,
        persistence: errors.absErrorPersistence,
        usual: errors.absErrorUsual,
        usualUnknown: Number(usual === null),
      };
      this.tally.add(split, ride.name, [`${segment} ${horizon}`, `all ${horizon}`], sums);
    }
    // Best time: at the ride's first open sample of the day, then at the first open one of each later hour.
    if (scoring.fitOnly || at < (this.nextCheckAt.get(ride.id) ?? opened)) return;
    this.nextCheckAt.set(ride.id, opened + HOUR_MS * (Math.floor((at - opened) / HOUR_MS) + 1));
    const check = bestTimeCheck(context, ride, wait);
    if (check) this.tally.add(split, ride.name, ['best time'], check);
  }
}

/** One park replayed whole (`fitOnly`: its training days, gathering fit rows). */
export async function replay(park: ParkSeries, options: ReplayOptions & Scoring) {
  const { timeZone, trainShare, ...scoring } = options;
  const replayed = await new ParkReplay(park, { timeZone, trainShare }).run(
    scoring.fitOnly ? 'training' : 'validation',
    scoring,
  );
  const { days, tally, fitRows } = replayed;
  return { days, tally, fitRows };
}
