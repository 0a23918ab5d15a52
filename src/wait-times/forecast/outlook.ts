import { DAY_MS, HALF_HOUR_MINUTES, HALF_HOUR_MS, MINUTE_MS, QUARTER_HOUR_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { minuteOfDay } from '../local-time.ts';
import { MAX_WAIT_MINUTES } from '../wait-times-schemas.ts';
import { CLOSED_EARLY_LIMIT, closedEarlyShare } from './ride-closing.ts';
import { bucketOf, expectedChange, usualWaitOf } from './wait-profile.ts';
import type { WaitProfile } from './wait-profile-schemas.ts';

/**
 * The rest of a ride's day, one model for every horizon from the 30-minute `forecast` on: the live
 * wait plus the learned changes chained ahead and, from an hour on, a pull toward the usual wait
 * scaled by how busy the park is today. Weights fitted on training days only (`npm run backtest --
 * --fit`); docs/wait-times.md, "Forecasting".
 */

/** Weights at one horizon (minutes): of the chained change, of the pull toward the park-scaled usual wait, of SHARPEN. */
export type BlendRow = { horizon: number; chained: number; usual: number; sharpen: number };
export type Blend = readonly [BlendRow, ...BlendRow[]];
/** Linear between rows. */
export const BLEND: Blend = [
  { horizon: 0, chained: 1, usual: 0, sharpen: 1 },
  { horizon: 30, chained: 1, usual: 0, sharpen: 1 },
  { horizon: 60, chained: 1.07, usual: 0.11, sharpen: 0 },
  { horizon: 120, chained: 0.92, usual: 0.25, sharpen: 0 },
  { horizon: 240, chained: 0.82, usual: 0.3, sharpen: 0 },
  { horizon: 360, chained: 0.75, usual: 0.32, sharpen: 0 },
];
/** A chained change within ±2 minutes is noise; beyond, the slow running medians lag, so it counts 1.3 times. */
const SHARPEN = { deadZone: 2, gain: 1.3 } as const;
/** The park's ratio is bounded: a handful of rides reopening after a breakdown says little. */
const PARK_RATIO_BOUNDS = { min: 0.5, max: 2 } as const;

/** Rounds minutes to the nearest 5-minute step (posted-wait style), within 0 and the maximum. */
export function toStep(minutes: number): number {
  return Math.min(MAX_WAIT_MINUTES, Math.max(0, Math.round(minutes / 5) * 5));
}

function blendAt(horizon: number, blend: Blend): Omit<BlendRow, 'horizon'> {
  const upper = blend.findIndex((row) => row.horizon >= horizon);
  const low = blend[upper < 0 ? blend.length - 1 : Math.max(0, upper - 1)] ?? blend[0];
  const high = blend[upper] ?? low;
  const share = high.horizon === low.horizon ? 0 : (horizon - low.horizon) / (high.horizon - low.horizon);
  const between = (weight: keyof BlendRow) => low[weight] + share * (high[weight] - low[weight]);
  return { chained: between('chained'), usual: between('usual'), sharpen: between('sharpen') };
}

/** What the model knows of a park at one moment, the same for each of its rides. */
export interface ForecastContext {
  /** The park's learned profile; null before anything is learned (persistence). */
  profile: WaitProfile | null;
  /** The park's IANA time zone: the profile's half hours are on its wall clock. */
  timeZone: string;
  /** When the waits were read (Unix ms): every horizon counts from here. */
  at: number;
  /** How busy the park is against its usual day (`parkRatioOf`); 1 is neutral. */
  parkRatio: number;
  /** The park's hours today; null while unknown (the outlook then runs to the end of the local day). */
  hours: DayHours | null;
  /** Other BLEND weights than the shipped ones: the backtest's leave-one-park-out folds fit their own. */
  blend?: Blend;
}

/** The context before the park's ratio is known, and all a single wait's forecast needs. */
export type ParkMoment = Pick<ForecastContext, 'profile' | 'timeZone' | 'at'>;

/**
 * How busy the park is right now against its usual day: the median over open rides of the wait
 * now divided by the ride's usual wait for this half hour, bounded; 1 while nothing is usual yet.
 */
export function parkRatioOf(
  { profile, timeZone, at }: ParkMoment,
  rides: readonly { id: string; wait: number | null }[],
): number {
  const bucket = bucketOf(minuteOfDay(at, timeZone));
  const ratios = rides
    .flatMap(({ id, wait }) => {
      const usual = usualWaitOf(profile, id, bucket);
      return wait === null || usual === null || usual <= 0 ? [] : [wait / usual];
    })
    .sort((a, b) => a - b);
  if (ratios.length === 0) return 1;
  const middle = ratios.length / 2;
  const median =
    ratios.length % 2 ? (ratios[Math.floor(middle)] ?? 1) : ((ratios[middle - 1] ?? 1) + (ratios[middle] ?? 1)) / 2;
  return Math.min(PARK_RATIO_BOUNDS.max, Math.max(PARK_RATIO_BOUNDS.min, median));
}

/**
 * The expected posted wait of an open ride at `to` (Unix ms), from its wait at the context's `at`,
 * in minutes (not rounded). Without anything learned it is the wait at `at` (persistence).
 */
export function expectedWait(
  context: ParkMoment & Pick<ForecastContext, 'parkRatio' | 'blend'>,
  ride: { id: string; wait: number },
  to: number,
): number {
  const { profile, timeZone, at, parkRatio } = context;
  const horizon = Math.max(0, (to - at) / MINUTE_MS);
  const chained = chainedWait(context, ride, to);
  const usual = usualWaitOf(profile, ride.id, bucketOf(minuteOfDay(to, timeZone)));
  const weight = blendAt(horizon, context.blend ?? BLEND);
  const change = chained - ride.wait;
  const sharpened = Math.sign(change) * SHARPEN.gain * Math.max(0, Math.abs(change) - SHARPEN.deadZone);
  return Math.max(
    0,
    ride.wait +
      weight.chained * (change + weight.sharpen * (sharpened - change)) +
      (usual === null ? 0 : weight.usual * (parkRatio * usual - ride.wait)),
  );
}

/**
 * The wait from the context's `at` to `to` by the learned 30-minute changes alone, chained quarter
 * hour by quarter hour (each step conditioned on the wait reached so far); the backtest's `--fit` reads it too.
 */
export function chainedWait(
  { profile, timeZone, at: from }: ParkMoment,
  ride: { id: string; wait: number },
  to: number,
): number {
  let chained = ride.wait;
  for (let at = from; at < to; at += QUARTER_HOUR_MS) {
    const share = Math.min(QUARTER_HOUR_MS, to - at) / HALF_HOUR_MS;
    chained = Math.max(0, chained + share * expectedChange(profile, ride.id, chained, minuteOfDay(at, timeZone)));
  }
  return chained;
}

/**
 * The wall-clock half hours (:00 and :30 in the park's zone) after `from` and before `until`.
 * Zones change offset on a quarter hour of UTC, so stepping by quarter hours meets every one.
 */
export function halfHoursBetween(from: number, until: number, timeZone: string): number[] {
  const times: number[] = [];
  const first = Math.floor(from / QUARTER_HOUR_MS) * QUARTER_HOUR_MS + QUARTER_HOUR_MS;
  for (let at = first; at < until; at += QUARTER_HOUR_MS) {
    if (minuteOfDay(at, timeZone) % HALF_HOUR_MINUTES === 0) times.push(at);
  }
  return times;
}

/** A day is at most this long: hours reaching further (a bad upstream) are cut here. */
const LONGEST_DAY_MS = DAY_MS;

/**
 * The half hours the outlook covers: after now, or from opening while the park has not opened yet,
 * and before closing (past midnight when it closes then); none after closing, when the rides are
 * closed for the day. With the hours unknown, the half hours after now before `dayEndsAt`.
 */
export function outlookTimesOf(
  { at, timeZone, hours }: Pick<ForecastContext, 'at' | 'timeZone' | 'hours'>,
  dayEndsAt: number,
): number[] {
  if (hours === null) return halfHoursBetween(at, dayEndsAt, timeZone);
  // `halfHoursBetween` leaves out its start: now is the live wait, but opening is a half hour open.
  return halfHoursBetween(Math.max(at, hours.opensAt - 1), Math.min(hours.closesAt, at + LONGEST_DAY_MS), timeZone);
}

export interface RideOutlook {
  /** Expected posted wait (multiple of 5) at each of the times asked for, or null. */
  outlook: (number | null)[];
  /** The lowest expected wait still ahead and when, or null. */
  bestTime: { at: number; wait: number } | null;
}

/**
 * A ride's outlook at `times` (`outlookTimesOf`) from its wait at the context's `at`: null where
 * its usual wait then is not learned (a new park, or hours the ride is usually closed) and, with
 * the hours, where the ride has often closed for the day by then (ride-closing.ts). Closed now,
 * its usual day before the park opens (nothing of today is known yet), else all null (down, or
 * closed for the day while the hours are unknown). The best time is the lowest expectation before
 * rounding: half hours shown alike are rarely alike.
 */
export function rideOutlookOf(
  context: ForecastContext,
  ride: { id: string; wait: number | null },
  times: readonly number[],
): RideOutlook {
  const { profile, timeZone, at, hours } = context;
  const { id, wait } = ride;
  const beforeOpening = hours !== null && at < hours.opensAt;
  const expected = times.map((to) => {
    const usual = usualWaitOf(profile, id, bucketOf(minuteOfDay(to, timeZone)));
    if (usual === null || (hours && closedEarlyShare(profile, id, to, hours.closesAt) > CLOSED_EARLY_LIMIT))
      return null;
    if (wait === null) return beforeOpening ? usual : null;
    return expectedWait(context, { id, wait }, to);
  });
  const best = bestTimeOf(times, expected);
  const outlook = expected.map((minutes) => (minutes === null ? null : toStep(minutes)));
  return { outlook, bestTime: best && { at: best.at, wait: toStep(best.wait) } };
}

/** The lowest expected wait and its time, the earliest of equals; null when nothing is expected. */
export function bestTimeOf(times: readonly number[], outlook: readonly (number | null)[]): RideOutlook['bestTime'] {
  let best: RideOutlook['bestTime'] = null;
  outlook.forEach((wait, index) => {
    const at = times[index];
    if (wait !== null && at !== undefined && (best === null || wait < best.wait)) best = { at, wait };
  });
  return best;
}
