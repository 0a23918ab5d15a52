import type { HistorySample } from '../park-snapshot-schemas.ts';
import {
  BUCKETS_PER_DAY,
  MAX_OBSERVATIONS,
  MAX_PROFILE_RIDES,
  MAX_WAIT_MINUTES,
  type ProfileBucket,
  type RideProfile,
  type WaitProfile,
} from './wait-profile-schemas.ts';

/**
 * The forecaster's memory: for each ride and each half-hour of the park's local day, how the
 * posted wait tends to change over the next 30 minutes. Learned from pairs of the service's own
 * history samples about 30 minutes apart (see `recordSample` in wait-history.ts).
 *
 * Why these choices (measured with `npm run backtest`, see the README's "Forecasting"):
 * - Time of day carries the signal: waits climb after opening and fall towards closing. Clock
 *   slots of 30 minutes did as well as 15 and halve the record.
 * - Conditioning on the wait's level against the slot's usual level (below / near / above) adds
 *   mean reversion: a wait that is low for the hour (say, a ride just back from a breakdown)
 *   tends to rise, a high one to fall.
 * - A running median, not a mean, because the score is the absolute error and posted waits jump.
 *   It moves by a small step scaled by the slot's spread, so it behaves the same for a ride of 10
 *   minutes and one of 150; early steps are larger so that a new park learns within days.
 */

export const BUCKET_MINUTES = 1440 / BUCKETS_PER_DAY;
/** Below this many observations in its band a slot says nothing and the forecast is persistence. */
export const MIN_OBSERVATIONS = 10;
/** A wait is "near" the slot's level within ±20 % and ±5 minutes; below or above that it is low or high. */
export const LEVEL_BAND = { ratio: 0.2, minutes: 5 } as const;
/** Median step per observation, in units of the slot's spread (never below 2 minutes). */
const MEDIAN_STEP = 0.01;
/** Warm-up: the step is at least this divided by (observations + 1). */
const WARM_UP_STEP = 0.3;
const MIN_SPREAD = 2;
/** The spread a slot starts with, before it has seen how much waits move at that time. */
const INITIAL_SPREAD = 5;
/** Weight of a new observation in the exponentially weighted level and spread. */
const LEVEL_WEIGHT = 0.05;
const SPREAD_WEIGHT = 0.05;
/** A ride not seen for this long (removed, or closed for the season) is forgotten. */
export const FORGET_RIDE_AFTER_MS = 60 * 24 * 60 * 60_000;

/** 0 low, 1 near, 2 high: the wait against the slot's usual level. */
export type Band = 0 | 1 | 2;

export function emptyProfile(): WaitProfile {
  return { version: 1, learnedThrough: 0, rides: {} };
}

/** The half-hour slot of a park-local minute of the day (0–1439). */
export function bucketOf(localMinute: number): number {
  return Math.min(BUCKETS_PER_DAY - 1, Math.max(0, Math.floor(localMinute / BUCKET_MINUTES)));
}

/** Whether a wait is low, near or high against a slot's usual level. */
export function bandOf(wait: number, level: number): Band {
  if (wait > level * (1 + LEVEL_BAND.ratio) + LEVEL_BAND.minutes) return 2;
  if (wait < level * (1 - LEVEL_BAND.ratio) - LEVEL_BAND.minutes) return 0;
  return 1;
}

/** A slot as the code reads it; stored as the flat tuple `ProfileBucket` to keep the record small. */
interface Slot {
  level: number;
  spread: number;
  /** By band (low, near, high). */
  shift: PerBand;
  count: PerBand;
}
type PerBand = [number, number, number];

function withBand(values: PerBand, band: Band, value: number): PerBand {
  const copy: PerBand = [values[0], values[1], values[2]];
  copy[band] = value;
  return copy;
}

function decode([level, spread, lowShift, lowCount, shift, count, highShift, highCount]: ProfileBucket): Slot {
  return { level, spread, shift: [lowShift, shift, highShift], count: [lowCount, count, highCount] };
}

function encode({ level, spread, shift, count }: Slot): ProfileBucket {
  return [level, spread, shift[0], count[0], shift[1], count[1], shift[2], count[2]];
}

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/**
 * Learns from one pair of history samples: for every ride open in both (with a plausible wait), the change of its wait
 * from `earlier` to `now` is an observation for the slot of `earlier` (the moment a forecast
 * would have been made). `localMinute` is the park-local minute of day of `earlier.at`.
 * Returns a new profile; the one given is not modified.
 */
export function updateProfile(
  profile: WaitProfile,
  now: HistorySample,
  earlier: HistorySample,
  localMinute: number,
): WaitProfile {
  const slot = String(bucketOf(localMinute));
  let rides: Record<string, RideProfile> | undefined;
  for (const [id, waitThen] of Object.entries(earlier.waits)) {
    const waitNow = now.waits[id];
    if (waitThen === null || waitNow === null || waitNow === undefined) continue;
    if (waitThen > MAX_WAIT_MINUTES || waitNow > MAX_WAIT_MINUTES) continue; // an upstream glitch
    const ride = profile.rides[id];
    const bucket = observe(ride?.buckets[slot], waitThen, waitNow - waitThen);
    rides ??= { ...profile.rides };
    rides[id] = { seen: Math.max(ride?.seen ?? 0, now.at), buckets: { ...ride?.buckets, [slot]: bucket } };
  }
  return rides ? { ...profile, rides } : profile;
}

/** One observation of a slot: the wait at the start and its change over about 30 minutes. */
function observe(bucket: ProfileBucket | undefined, wait: number, change: number): ProfileBucket {
  const slot: Slot = bucket
    ? decode(bucket)
    : { level: wait, spread: INITIAL_SPREAD, shift: [0, 0, 0], count: [0, 0, 0] };
  const band = bandOf(wait, slot.level);
  const shift = slot.shift[band];
  const count = slot.count[band];
  const step = Math.max(MEDIAN_STEP, WARM_UP_STEP / (count + 1)) * Math.max(slot.spread, MIN_SPREAD);
  const moved = shift + step * Math.sign(change - shift);
  return encode({
    level: round(slot.level + LEVEL_WEIGHT * (wait - slot.level), 1),
    spread: round(slot.spread + SPREAD_WEIGHT * (Math.abs(change - moved) - slot.spread), 1),
    shift: withBand(slot.shift, band, round(moved, 2)),
    count: withBand(slot.count, band, Math.min(MAX_OBSERVATIONS, count + 1)),
  });
}

/**
 * The learned change of a ride's wait over the next 30 minutes at this wait and local time, or 0
 * when the profile does not know enough yet (the forecast is then persistence).
 */
export function expectedChange(profile: WaitProfile | null, rideId: string, wait: number, localMinute: number): number {
  const bucket = profile?.rides[rideId]?.buckets[String(bucketOf(localMinute))];
  if (!bucket) return 0;
  const slot = decode(bucket);
  const band = bandOf(wait, slot.level);
  return slot.count[band] >= MIN_OBSERVATIONS ? slot.shift[band] : 0;
}

/**
 * Keeps the record bounded: forgets rides not seen for `FORGET_RIDE_AFTER_MS` and, past
 * `MAX_PROFILE_RIDES`, the ones seen least recently. Each ride holds at most 48 slots by design.
 */
export function boundProfile(profile: WaitProfile, at: number): WaitProfile {
  const entries = Object.entries(profile.rides);
  const kept = entries
    .filter(([, ride]) => at - ride.seen <= FORGET_RIDE_AFTER_MS)
    .sort(([a, x], [b, y]) => y.seen - x.seen || (a < b ? -1 : 1))
    .slice(0, MAX_PROFILE_RIDES);
  if (kept.length === entries.length) return profile;
  return { ...profile, rides: Object.fromEntries(kept) };
}
