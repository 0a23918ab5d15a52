import { DAY_MS, MINUTES_PER_DAY } from '../../platform/time-units.ts';
import type { HistorySample } from '../park-snapshot-schemas.ts';
import { MAX_WAIT_MINUTES } from '../wait-times-schemas.ts';
import {
  type Band,
  BUCKETS_PER_DAY,
  MAX_OBSERVATIONS,
  MAX_PROFILE_RIDES,
  type ProfileBucket,
  type RideProfile,
  type WaitProfile,
} from './wait-profile-schemas.ts';

/**
 * The forecaster's memory, learned from history samples 30 minutes apart: per ride and half hour
 * of the local day, the running median of the wait's 30-minute change (the score is the absolute
 * error), apart for waits below, near or above the usual level (a wait low for the hour tends to
 * rise), stepped in units of the slot's spread. Each choice measured: docs/research/forecasting.md.
 */

/** Below this many observations in its band a slot says nothing and the forecast is persistence. */
export const MIN_OBSERVATIONS = 10;
/** A wait is "near" the slot's level within ±20 % and ±5 minutes. */
const LEVEL_BAND = { ratio: 0.2, minutes: 5 } as const;
/** In band widths off the level: where a far band's median stands, and how far the change goes on growing. */
const FAR_BAND_WIDTHS = { median: 2, beyond: 3 } as const;
/** Median step per observation in units of the slot's spread (at least 2 minutes); warm-up steps are larger. */
const MEDIAN_STEP = 0.05;
const WARM_UP_STEP = 0.3;
const MIN_SPREAD = 2;
const INITIAL_SPREAD = 5;
/** Weight of a new observation in the exponentially weighted level and spread. */
const LEVEL_WEIGHT = 0.05;
const SPREAD_WEIGHT = 0.05;
/** Weight of each sample in a half hour's open share, and the share from which it is usually open. */
const OPEN_WEIGHT = 0.05;
const USUALLY_OPEN = 0.5;
/** A ride not seen for this long (removed, or closed for the season) is forgotten. */
export const FORGET_RIDE_AFTER_MS = 60 * DAY_MS;

export function emptyProfile(): WaitProfile {
  return { version: 1, learnedThrough: 0, rides: {} };
}

/** The half-hour slot of a park-local minute of the day (0–1439). */
export function bucketOf(localMinute: number): number {
  return Math.min(BUCKETS_PER_DAY - 1, Math.max(0, Math.floor(localMinute / (MINUTES_PER_DAY / BUCKETS_PER_DAY))));
}

/** A wait against a slot's usual level. */
export function bandOf(wait: number, level: number): Band {
  if (wait > level * (1 + LEVEL_BAND.ratio) + LEVEL_BAND.minutes) return 'high';
  if (wait < level * (1 - LEVEL_BAND.ratio) - LEVEL_BAND.minutes) return 'low';
  return 'near';
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * Learns from one pair of samples: for every ride open in both with a plausible wait, the change
 * from `earlier` to `now` is an observation for the slot of `earlier` (`localMinute` is its
 * park-local minute of day); a ride closed in `earlier` lowers that slot's open share, so that a
 * few late-closing days do not make the late hours usual; a ride closed since still counts as open
 * then, at its wait (its last half hour, when posted waits fall, would otherwise never be learned).
 * Returns a new profile.
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
    const ride = profile.rides[id];
    const known = ride?.buckets[slot];
    let bucket: ProfileBucket | undefined;
    if (waitThen === null) bucket = known && withOpenShare(known, 0);
    else if (waitThen > MAX_WAIT_MINUTES) continue;
    else if (waitNow === null) bucket = known && withOpenShare(known, 1, waitThen);
    else if (waitNow !== undefined && waitNow <= MAX_WAIT_MINUTES) {
      bucket = withOpenShare(observe(known, waitThen, waitNow - waitThen), 1);
    }
    if (!bucket) continue;
    rides ??= { ...profile.rides };
    rides[id] = { ...ride, seen: Math.max(ride?.seen ?? 0, now.at), buckets: { ...ride?.buckets, [slot]: bucket } };
  }
  return rides ? { ...profile, rides } : profile;
}

/** One observation of a slot: the wait at the start and its change over about 30 minutes. */
function observe(bucket: ProfileBucket | undefined, wait: number, change: number): ProfileBucket {
  const learned = bucket ?? newBucket(wait);
  const { level, spread } = learned;
  const band = bandOf(wait, level);
  const { shift, count } = learned.bands[band];
  const moved =
    shift +
    Math.max(MEDIAN_STEP, WARM_UP_STEP / (count + 1)) * Math.max(spread, MIN_SPREAD) * Math.sign(change - shift);
  return {
    ...learned,
    level: movedLevel(level, wait),
    spread: round(spread + SPREAD_WEIGHT * (Math.abs(change - moved) - spread), 1),
    bands: { ...learned.bands, [band]: { shift: round(moved, 2), count: Math.min(MAX_OBSERVATIONS, count + 1) } },
  };
}

/** A half hour first seen with this wait: nothing learned, open. */
const newBucket = (wait: number): ProfileBucket => ({
  level: wait,
  spread: INITIAL_SPREAD,
  bands: { low: { shift: 0, count: 0 }, near: { shift: 0, count: 0 }, high: { shift: 0, count: 0 } },
  openShare: 1,
});

const movedLevel = (level: number, wait: number) => round(level + LEVEL_WEIGHT * (wait - level), 1);

/** The slot seen open or closed; `wait` (open) moves its level too. */
function withOpenShare(bucket: ProfileBucket, open: 0 | 1, wait?: number): ProfileBucket {
  const openShare = round(bucket.openShare + OPEN_WEIGHT * (open - bucket.openShare), 3);
  return { ...bucket, openShare, level: wait === undefined ? bucket.level : movedLevel(bucket.level, wait) };
}

/** The learned 30-minute change (0 while unknown), between the two half hours whose middles are nearest. */
export function expectedChange(profile: WaitProfile | null, rideId: string, wait: number, localMinute: number): number {
  const position = (localMinute - 15) / 30;
  const first = Math.floor(position);
  const known = [first, first + 1].flatMap((slot) => {
    const change = slotChange(profile?.rides[rideId]?.buckets[String(slot)], wait);
    const weight = 1 - Math.abs(position - slot);
    return change === undefined || weight <= 0 ? [] : [{ change, weight }];
  });
  const weights = known.reduce((sum, { weight }) => sum + weight, 0);
  return weights > 0 ? known.reduce((sum, { change, weight }) => sum + change * weight, 0) / weights : 0;
}

/**
 * One half hour's change: linear in the wait's distance from the level, from the near band's
 * median to the far band's (FAR_BAND_WIDTHS); its own band's alone while another knows too little.
 */
function slotChange(bucket: ProfileBucket | undefined, wait: number): number | undefined {
  if (!bucket) return undefined;
  const { level, bands } = bucket;
  const known = (band: Band) => bands[band].count >= MIN_OBSERVATIONS;
  const band = bandOf(wait, level);
  if (!known(band)) return undefined;
  const side = wait < level ? 'low' : 'high';
  if (!known('near') || !known(side)) return bands[band].shift;
  const [near, far] = [bands.near.shift, bands[side].shift];
  const distance = Math.abs(wait - level) / (level * LEVEL_BAND.ratio + LEVEL_BAND.minutes);
  return near + ((far - near) * Math.min(FAR_BAND_WIDTHS.beyond, distance)) / FAR_BAND_WIDTHS.median;
}

/** A half hour's learned level counts as "usual" from this many observations (about a day). */
export const MIN_USUAL_OBSERVATIONS = 6;

/** A ride's usual wait in a half hour of the local day (0–47), or null while not learned or usually closed then. */
export function usualWaitOf(profile: WaitProfile | null, rideId: string, bucket: number): number | null {
  const learned = profile?.rides[rideId]?.buckets[String(bucket)];
  if (!learned) return null;
  const { low, near, high } = learned.bands;
  const observations = low.count + near.count + high.count;
  return observations >= MIN_USUAL_OBSERVATIONS && learned.openShare >= USUALLY_OPEN ? learned.level : null;
}

/** Forgets rides unseen for `FORGET_RIDE_AFTER_MS` and, past `MAX_PROFILE_RIDES`, the least recently seen. */
export function boundProfile(profile: WaitProfile, at: number): WaitProfile {
  const entries = Object.entries(profile.rides);
  const kept = entries
    .filter(([, ride]) => at - ride.seen <= FORGET_RIDE_AFTER_MS)
    .sort(([a, x], [b, y]) => y.seen - x.seen || (a < b ? -1 : 1))
    .slice(0, MAX_PROFILE_RIDES);
  return kept.length === entries.length ? profile : { ...profile, rides: Object.fromEntries(kept) };
}
