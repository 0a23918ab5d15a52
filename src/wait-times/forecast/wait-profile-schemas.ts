import * as z from '../../platform/zod-mini.ts';

/** Longer posted waits are upstream glitches (the backtest's longest is 390): never learned, forecasts stop here. */
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

const share = z.number().check(z.minimum(0), z.maximum(1));

/**
 * One ride's half hour as a compact tuple `[level, spread, lowShift, lowCount, usualShift,
 * usualCount, highShift, highCount, openShare]`: the typical wait and miss (minutes, exponentially
 * weighted), per band (wait below, near or above `level`) the running median of the 30-minute
 * change, and how often the ride is open in this half hour (exponentially weighted, 0–1; records
 * written before it was kept lack it and count as open).
 */
const ProfileBucketSchema = z.tuple([minutes, minutes, shift, count, shift, count, shift, count, z.optional(share)]);
export type ProfileBucket = z.output<typeof ProfileBucketSchema>;

/**
 * A park's forecaster record in Blobs: a fold over its history samples in time order, each
 * applied at most once (`learnedThrough` is the newest consumed). Bucket keys are half hours "0"–"47";
 * `seen` is the newest sample a ride learned from.
 */
export const WaitProfileSchema = z.object({
  version: z.literal(1),
  learnedThrough: z.int().check(z.minimum(0)),
  rides: z
    .record(
      z.string(),
      z.object({
        seen: z.int().check(z.minimum(0)),
        buckets: z.record(z.string().check(z.regex(/^(?:[0-9]|[1-3][0-9]|4[0-7])$/)), ProfileBucketSchema),
      }),
    )
    .check(z.refine((rides) => Object.keys(rides).length <= MAX_PROFILE_RIDES, `at most ${MAX_PROFILE_RIDES} rides`)),
});

export type WaitProfile = z.output<typeof WaitProfileSchema>;
export type RideProfile = WaitProfile['rides'][string];
