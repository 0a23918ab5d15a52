import { bucketOf, usualWaitOf } from '../forecast/wait-profile.ts';
import { BUCKETS_PER_DAY, type WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { minuteOfDay } from '../local-time.ts';
import type { CrowdLevel } from './history-schemas.ts';

/** Below this many compared readings there is no crowd level (a few rides over a few minutes say little). */
export const MIN_CROWD_COMPARISONS = 20;
/** Ratio bounds of the words: below `quieter`, above `busier`, `usual` between (inclusive). */
export const CROWD_BOUNDS = { quieter: 0.85, busier: 1.15 } as const;

/** A ride's usual wait per half hour of the local day (48 entries), null where not learned yet. */
export function usualWaits(profile: WaitProfile | null, rideId: string): (number | null)[] {
  return Array.from({ length: BUCKETS_PER_DAY }, (_, index) => {
    const usual = usualWaitOf(profile, rideId, index);
    return usual === null ? null : Math.round(usual);
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
  const readings = rides.flatMap((ride, rideIndex) =>
    ride.waits.flatMap((wait, index) => {
      const expected = ride.usual[halfHours[index] ?? -1];
      return wait === null || expected == null ? [] : [{ rideIndex, wait, expected, at: times[index] ?? 0 }];
    }),
  );
  const today = readings.reduce((sum, reading) => sum + reading.wait, 0);
  const usual = readings.reduce((sum, reading) => sum + reading.expected, 0);
  const basis = {
    comparisons: readings.length,
    rides: new Set(readings.map((reading) => reading.rideIndex)).size,
    since: readings.reduce<number | null>((first, { at }) => (first === null || at < first ? at : first), null),
  };
  if (readings.length < MIN_CROWD_COMPARISONS || usual <= 0) return { level: null, ratio: null, ...basis };
  const ratio = Math.round((today / usual) * 100) / 100;
  return { level: crowdWordOf(ratio), ratio, ...basis };
}
