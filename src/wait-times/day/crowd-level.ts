import { bucketOf } from '../forecast/wait-profile.ts';
import { BUCKETS_PER_DAY, type WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { minuteOfDay } from '../local-time.ts';
import type { CrowdLevel } from './history-schemas.ts';

/** A half hour's learned level (wait-profile.ts) counts as "usual" from this many observations (about a day). */
export const MIN_USUAL_OBSERVATIONS = 6;
/** Below this many compared readings there is no crowd level (a few rides over a few minutes say little). */
export const MIN_CROWD_COMPARISONS = 20;
/** Ratio bounds of the words: below `quieter`, above `busier`, `usual` between (inclusive). */
export const CROWD_BOUNDS = { quieter: 0.85, busier: 1.15 } as const;

/** A ride's usual wait per half hour of the local day (48 entries), null where not learned yet. */
export function usualWaits(profile: WaitProfile | null, rideId: string): (number | null)[] {
  const buckets = profile?.rides[rideId]?.buckets ?? {};
  return Array.from({ length: BUCKETS_PER_DAY }, (_, index) => {
    const bucket = buckets[String(index)];
    if (!bucket) return null;
    const [level, , , low, , near, , high] = bucket;
    return low + near + high >= MIN_USUAL_OBSERVATIONS ? Math.round(level) : null;
  });
}

/** The word for a ratio of today's waits to the usual ones. */
export function crowdWordOf(ratio: number): NonNullable<CrowdLevel['level']> {
  if (ratio < CROWD_BOUNDS.quieter) return 'quieter';
  if (ratio > CROWD_BOUNDS.busier) return 'busier';
  return 'usual';
}

/**
 * "Is it busy today?": every reading of today (a ride open at one of `times`) against that ride's
 * usual wait in the same local half hour. The ratio of sums weighs long queues more, as visitors feel them.
 */
export function crowdLevelOf(
  times: readonly number[],
  rides: readonly { waits: readonly (number | null)[]; usual: readonly (number | null)[] }[],
  timeZone: string,
): CrowdLevel {
  const halfHours = times.map((at) => bucketOf(minuteOfDay(at, timeZone)));
  let today = 0;
  let usual = 0;
  let comparisons = 0;
  let since: number | null = null;
  let rideCount = 0;
  for (const ride of rides) {
    let compared = false;
    ride.waits.forEach((wait, index) => {
      const expected = ride.usual[halfHours[index] ?? -1];
      if (wait === null || expected === null || expected === undefined) return;
      today += wait;
      usual += expected;
      comparisons += 1;
      compared = true;
      const at = times[index] ?? 0;
      if (since === null || at < since) since = at;
    });
    if (compared) rideCount += 1;
  }
  if (comparisons < MIN_CROWD_COMPARISONS || usual <= 0) {
    return { level: null, ratio: null, comparisons, rides: rideCount, since };
  }
  const ratio = Math.round((today / usual) * 100) / 100;
  return { level: crowdWordOf(ratio), ratio, comparisons, rides: rideCount, since };
}
