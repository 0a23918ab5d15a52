import * as z from '../../platform/zod-mini.ts';

/**
 * No posted queue is longer than this (the longest in the backtest data is 390 minutes): waits
 * above it are upstream glitches, never learned from, and forecasts stop here. A multiple of 5.
 */
export const MAX_WAIT_MINUTES = 480;
/** Buckets per ride: one per 30 minutes of the park's local day. */
export const BUCKETS_PER_DAY = 48;
/** Rides kept per park; the ones seen least recently go first (big parks list about 40–60). */
export const MAX_PROFILE_RIDES = 100;
/** Observation counts stop here: past the warm-up they only gate "enough data", never weigh. */
export const MAX_OBSERVATIONS = 100;

/** Each member of a bucket tuple (below) and the range it must lie in. */
const BUCKET_MEMBERS = [
  { name: 'level', min: 0, max: 1000, int: false },
  { name: 'spread', min: 0, max: 1000, int: false },
  { name: 'lowShift', min: -1000, max: 1000, int: false },
  { name: 'lowCount', min: 0, max: MAX_OBSERVATIONS, int: true },
  { name: 'usualShift', min: -1000, max: 1000, int: false },
  { name: 'usualCount', min: 0, max: MAX_OBSERVATIONS, int: true },
  { name: 'highShift', min: -1000, max: 1000, int: false },
  { name: 'highCount', min: 0, max: MAX_OBSERVATIONS, int: true },
] as const;

const memberSchema = ({ min, max, int }: (typeof BUCKET_MEMBERS)[number]) =>
  (int ? z.int() : z.number()).check(z.minimum(min), z.maximum(max));

/**
 * What one ride's waits do in one half-hour of the park's day, as a compact tuple:
 * `[level, spread, lowShift, lowCount, usualShift, usualCount, highShift, highCount]`.
 * `level` is the typical wait at that time and `spread` the typical size of the miss of the
 * median change (both minutes, exponentially weighted); each `…Shift` is a running median of the
 * 30-minute change seen when the wait was below, near or above `level`, with its observation count.
 */
export const ProfileBucketSchema = z.tuple([
  memberSchema(BUCKET_MEMBERS[0]),
  memberSchema(BUCKET_MEMBERS[1]),
  memberSchema(BUCKET_MEMBERS[2]),
  memberSchema(BUCKET_MEMBERS[3]),
  memberSchema(BUCKET_MEMBERS[4]),
  memberSchema(BUCKET_MEMBERS[5]),
  memberSchema(BUCKET_MEMBERS[6]),
  memberSchema(BUCKET_MEMBERS[7]),
]);
export type ProfileBucket = z.output<typeof ProfileBucketSchema>;

const BUCKET_KEY = /^(?:[0-9]|[1-3][0-9]|4[0-7])$/;

/** The check `ProfileBucketSchema` makes, as one loop over the members' ranges. */
const isProfileBucket = (value: unknown): value is ProfileBucket =>
  Array.isArray(value) &&
  value.length === BUCKET_MEMBERS.length &&
  BUCKET_MEMBERS.every(({ min, max, int }, index) => {
    const member: unknown = value[index];
    return typeof member === 'number' && member >= min && member <= max && (!int || Number.isInteger(member));
  });

/**
 * A ride's buckets by index, "0" (00:00–00:29 local) to "47" (23:30–23:59), each checked as
 * `ProfileBucketSchema` would check it, in one pass per ride. A park's profile holds thousands of
 * buckets (about 90 KB for 50 rides), and zod's tuple and record checks took about 45 ms of a
 * cold instance's first read of one (this check: about 8 ms; docs/netlify.md).
 */
const BucketsSchema = z.custom<Record<string, ProfileBucket>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(([key, bucket]) => BUCKET_KEY.test(key) && isProfileBucket(bucket)),
  { message: 'buckets must map half-hour indexes 0–47 to 8-member bucket tuples within their ranges' },
);

export const RideProfileSchema = z.object({
  /** Unix ms of the newest sample this ride learned from; rides unseen for long are dropped. */
  seen: z.int().check(z.minimum(0)),
  buckets: BucketsSchema,
});

/**
 * The per-park learning record of the forecaster, kept in Blobs next to the history samples. It
 * is a fold over the park's history samples in time order, each sample applied at most once:
 * `learnedThrough` is the newest sample it has consumed.
 */
export const WaitProfileSchema = z.object({
  version: z.literal(1),
  learnedThrough: z.int().check(z.minimum(0)),
  rides: z
    .record(z.string(), RideProfileSchema)
    .check(z.refine((rides) => Object.keys(rides).length <= MAX_PROFILE_RIDES, `at most ${MAX_PROFILE_RIDES} rides`)),
});

export type RideProfile = z.output<typeof RideProfileSchema>;
export type WaitProfile = z.output<typeof WaitProfileSchema>;
