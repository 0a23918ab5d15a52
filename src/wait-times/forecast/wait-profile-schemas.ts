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

const minutes = z.number().check(z.minimum(0), z.maximum(1000));
const shift = z.number().check(z.minimum(-1000), z.maximum(1000));
const count = z.int().check(z.minimum(0), z.maximum(MAX_OBSERVATIONS));

/**
 * What one ride's waits do in one half-hour of the park's day, as a compact tuple:
 * `[level, spread, lowShift, lowCount, usualShift, usualCount, highShift, highCount]`.
 * `level` is the typical wait at that time and `spread` the typical size of the miss of the
 * median change (both minutes, exponentially weighted); each `…Shift` is a running median of the
 * 30-minute change seen when the wait was below, near or above `level`, with its observation count.
 */
export const ProfileBucketSchema = z.tuple([minutes, minutes, shift, count, shift, count, shift, count]);
export type ProfileBucket = z.output<typeof ProfileBucketSchema>;

/** A bucket's key: its half hour, "0" (00:00–00:29 local) to "47" (23:30–23:59). */
const bucketKey = z.string().check(z.regex(/^(?:[0-9]|[1-3][0-9]|4[0-7])$/));

export const RideProfileSchema = z.object({
  /** Unix ms of the newest sample this ride learned from; rides unseen for long are dropped. */
  seen: z.int().check(z.minimum(0)),
  buckets: z.record(bucketKey, ProfileBucketSchema),
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
