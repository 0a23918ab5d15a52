import * as z from '../../platform/zod-mini.ts';

/** Buckets per ride: one per 30 minutes of the park's local day. */
export const BUCKETS_PER_DAY = 48;
/** Rides kept per park; the ones seen least recently go first (big parks list about 40–60). */
export const MAX_PROFILE_RIDES = 100;
/** Observation counts stop here: past the warm-up they only gate "enough data", never weigh. */
export const MAX_OBSERVATIONS = 100;

const minutes = z.number().check(z.minimum(0), z.maximum(1000));
const shift = z.number().check(z.minimum(-1000), z.maximum(1000));
const count = z.int().check(z.minimum(0), z.maximum(MAX_OBSERVATIONS));

const share = z.number().check(z.minimum(0), z.maximum(1));
/** Half hours before the park's closing for which a ride's early closings are kept (`ClosingShares`). */
export const CLOSING_STEPS = 6;

/**
 * One ride's half hour as stored: a compact tuple `[level, spread, lowShift, lowCount,
 * nearShift, nearCount, highShift, highCount, openShare]` (records written before the open share
 * was kept lack it). Read only through `decodeWaitProfile`: the code sees `ProfileBucket`.
 */
const StoredBucketSchema = z.tuple([minutes, minutes, shift, count, shift, count, shift, count, z.optional(share)]);

/**
 * A park's forecaster record in Blobs: a fold over its history samples in time order, each
 * applied at most once (`learnedThrough` is the newest consumed). Bucket keys are half hours "0"–"47";
 * `seen` is the newest sample a ride learned from.
 */
export const StoredWaitProfileSchema = z.object({
  version: z.literal(1),
  learnedThrough: z.int().check(z.minimum(0)),
  closingLearned: z.optional(z.int().check(z.minimum(0))),
  rides: z
    .record(
      z.string(),
      z.object({
        seen: z.int().check(z.minimum(0)),
        lastOpen: z.optional(z.int().check(z.minimum(0))),
        closedEarly: z.optional(z.array(share).check(z.length(CLOSING_STEPS))),
        buckets: z.record(z.string().check(z.regex(/^(?:[0-9]|[1-3][0-9]|4[0-7])$/)), StoredBucketSchema),
      }),
    )
    .check(z.refine((rides) => Object.keys(rides).length <= MAX_PROFILE_RIDES, `at most ${MAX_PROFILE_RIDES} rides`)),
});
export type StoredWaitProfile = z.output<typeof StoredWaitProfileSchema>;

/** A wait against a half hour's usual level: below, near (within ±20 % and ±5 minutes) or above it. */
export type Band = 'low' | 'near' | 'high';

/** What a half hour learned for one band: the running median of the 30-minute change and how many observations moved it. */
export interface BandChange {
  shift: number;
  count: number;
}

/** One ride's learned half hour of the local day. */
export interface ProfileBucket {
  /** The typical wait, in minutes (exponentially weighted). */
  level: number;
  /** The typical miss of the change's median, in minutes (exponentially weighted). */
  spread: number;
  bands: Readonly<Record<Band, BandChange>>;
  /** How often the ride is open in this half hour (0–1, exponentially weighted). */
  openShare: number;
}

export interface RideProfile {
  /** The newest sample the ride learned from (Unix ms). */
  seen: number;
  /** The newest sample in which the ride was open (Unix ms); absent in records written before it was kept. */
  lastOpen?: number | undefined;
  /**
   * How often the ride closed for the day at least k + 1 half hours before the park's published
   * closing (k = 0 … CLOSING_STEPS − 1, exponentially weighted per day); absent until a closing was learned.
   */
  closedEarly?: readonly number[] | undefined;
  /** Keyed by half hour of the local day, "0"–"47". */
  buckets: Readonly<Record<string, ProfileBucket>>;
}

/** A park's forecaster memory as the code reads it (`StoredWaitProfile` decoded). */
export interface WaitProfile {
  version: 1;
  learnedThrough: number;
  /** The park closing (Unix ms) whose early closings were learned last: each day's once. */
  closingLearned?: number | undefined;
  rides: Readonly<Record<string, RideProfile>>;
}

const mapValues = <T, U>(record: Readonly<Record<string, T>>, map: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/** The stored record in named fields; a half hour without an open share counts as open, as before it was kept. */
export function decodeWaitProfile(stored: StoredWaitProfile): WaitProfile {
  return {
    ...stored,
    rides: mapValues(stored.rides, ({ buckets, ...ride }) => ({
      ...ride,
      buckets: mapValues(
        buckets,
        ([level, spread, lowShift, lowCount, nearShift, nearCount, highShift, highCount, open]) => ({
          level,
          spread,
          bands: {
            low: { shift: lowShift, count: lowCount },
            near: { shift: nearShift, count: nearCount },
            high: { shift: highShift, count: highCount },
          },
          openShare: open ?? 1,
        }),
      ),
    })),
  };
}

/** The profile as it is stored (the compact tuples of `StoredWaitProfileSchema`). */
export function encodeWaitProfile(profile: WaitProfile): StoredWaitProfile {
  return {
    ...profile,
    rides: mapValues(profile.rides, ({ buckets, closedEarly, ...ride }) => ({
      ...ride,
      ...(closedEarly && { closedEarly: [...closedEarly] }),
      buckets: mapValues(buckets, ({ level, spread, bands: { low, near, high }, openShare }) => [
        level,
        spread,
        low.shift,
        low.count,
        near.shift,
        near.count,
        high.shift,
        high.count,
        openShare,
      ]),
    })),
  };
}
