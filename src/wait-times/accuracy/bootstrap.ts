import type { HorizonSums } from './accuracy-schemas.ts';

/** Resamples of the bootstrap, and its fixed seed: the same grades always give the same interval. */
const RESAMPLES = 1000;
const SEED = 0x5eed_2026;

/**
 * The 95 % percentile interval of the skill, resampling the park-days with replacement: park-days,
 * not single forecasts, since the forecasts of one day (one crowd, one weather) err together.
 */
export function bootstrapInterval(days: readonly HorizonSums[]): [number | null, number | null] {
  const random = mulberry32(SEED);
  const skills: number[] = [];
  for (let resample = 0; resample < RESAMPLES; resample++) {
    let absError = 0;
    let absErrorPersistence = 0;
    let absErrorUsual = 0;
    for (let pick = 0; pick < days.length; pick++) {
      const day = days[Math.floor(random() * days.length)] as HorizonSums;
      absError += day.absError;
      absErrorPersistence += day.absErrorPersistence;
      absErrorUsual += day.absErrorUsual;
    }
    const reference = Math.min(absErrorPersistence, absErrorUsual);
    if (reference > 0) skills.push(1 - absError / reference);
  }
  if (skills.length === 0) return [null, null];
  skills.sort((a, b) => a - b);
  return [quantile(skills, 0.025), quantile(skills, 0.975)];
}

/** Linear interpolation between the order statistics (R's type 7). */
function quantile(sorted: readonly number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (upper - lower) * (at - below);
}

/** A small seeded PRNG (mulberry32, public domain): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
