import { phaseOf } from '../../src/wait-times/outages/moment-shares.ts';
import { bucketFor, oddsFor, REOPEN_HORIZONS, reopenTableOf } from '../../src/wait-times/outages/reopen-odds.ts';
import { durationsOf, type FoundOutage, type ParkOutages, reopenedWithin } from './outages.ts';

/**
 * The reopen odds scored on validation days (docs/outages.md): at each moment a ride is seen down,
 * the odds the service would serve (reopen-odds.ts, built from the training days' outages of the
 * park, the pool of all parks where the park has too few) against a reference of the same scope
 * that ignores how long the ride has been down: the training share of down moments followed by a
 * reopening within the horizon. Brier scores, their skill, and calibration in 10-point bins.
 */

export type Horizon = (typeof REOPEN_HORIZONS)[number];
const POOL = 'all parks';

/** Sums for one park (or the pool): squared errors of ours and of the reference, per horizon, and the calibration bins. */
export interface Score {
  moments: number;
  /** Moments without odds (too few outages anywhere for that bucket). */
  unanswered: number;
  /** Moments answered from the pool. */
  pooled: number;
  brier: Record<Horizon, { n: number; ours: number; reference: number }>;
  /** Per 10-point bin of the served chance: count, sum of chances, sum of outcomes (all horizons). */
  bins: { n: number; predicted: number; observed: number }[];
  /** Outcomes per horizon, park and elapsed bucket (`phased`: and part of the day): for the best such odds could do. */
  groups: Record<Horizon, Map<string, { n: number; reopened: number }>>;
  phased: Record<Horizon, Map<string, { n: number; reopened: number }>>;
}

const emptyScore = (): Score => ({
  moments: 0,
  unanswered: 0,
  pooled: 0,
  brier: {
    15: { n: 0, ours: 0, reference: 0 },
    30: { n: 0, ours: 0, reference: 0 },
    60: { n: 0, ours: 0, reference: 0 },
  },
  bins: Array.from({ length: 10 }, () => ({ n: 0, predicted: 0, observed: 0 })),
  groups: { 15: new Map(), 30: new Map(), 60: new Map() },
  phased: { 15: new Map(), 30: new Map(), 60: new Map() },
});

/** The share of down moments followed by a reopening within each horizon (the reference), over some outages. */
function baseRates(found: readonly FoundOutage[]): Record<Horizon, number | null> {
  const rates = {} as Record<Horizon, number | null>;
  for (const horizon of REOPEN_HORIZONS) {
    let [n, reopened] = [0, 0];
    for (const { outage, moments } of found) {
      for (const at of moments) {
        const outcome = reopenedWithin(outage, at, horizon);
        if (outcome === undefined) continue;
        n++;
        reopened += outcome;
      }
    }
    rates[horizon] = n > 0 ? reopened / n : null;
  }
  return rates;
}

const inDays = (found: readonly FoundOutage[], days: readonly string[]) => {
  const set = new Set(days);
  return found.filter((item) => set.has(item.day));
};

/** Every park's score and the pooled one; `closing: false` scores the bucket's odds alone (elapsed time only). */
export function scoreOutages(
  parks: readonly ParkOutages[],
  { closing = true }: { closing?: boolean } = {},
): { byPark: Map<string, Score>; pooled: Score } {
  const training = new Map(parks.map((park) => [park.code, inDays(park.found, park.training)]));
  const poolTraining = [...training.values()].flat();
  const poolRates = baseRates(poolTraining);
  const pooled = emptyScore();
  const byPark = new Map<string, Score>();
  for (const park of parks) {
    const own = training.get(park.code) ?? [];
    // Moments are counted at TouringPlans' spacing, not the recorder's 5 minutes.
    const table = reopenTableOf(durationsOf(own), durationsOf(poolTraining), 0, park.sampleMinutes);
    const rates = { park: baseRates(own), [POOL]: poolRates };
    const score = emptyScore();
    for (const { outage, moments, opensAt, closesAt } of inDays(park.found, park.validation)) {
      for (const at of moments) {
        // Hours derived from the day's posts are not known ahead (opensAt null): no phase, no cut.
        const now = {
          minutesDown: (at - outage.from) / 60_000,
          minutesSinceOpening: opensAt === null ? null : (at - opensAt) / 60_000,
          minutesToClosing: opensAt === null ? null : (closesAt - at) / 60_000,
        };
        const phase = phaseOf(now.minutesSinceOpening, now.minutesToClosing);
        // What the read side serves (oddsFor); `closing: false` the bucket's odds alone.
        const bucket = closing ? oddsFor(table, now) : bucketFor(table, now.minutesDown);
        for (const target of [score, pooled]) target.moments++;
        if (!bucket?.reopenWithin) {
          for (const target of [score, pooled]) target.unanswered++;
          continue;
        }
        if (bucket.scope === POOL) for (const target of [score, pooled]) target.pooled++;
        for (const horizon of REOPEN_HORIZONS) {
          const outcome = reopenedWithin(outage, at, horizon);
          const reference = rates[bucket.scope][horizon];
          if (outcome === undefined || reference == null) continue;
          const chance = bucket.reopenWithin[String(horizon) as '15' | '30' | '60'];
          for (const target of [score, pooled]) {
            const sums = target.brier[horizon];
            sums.n++;
            sums.ours += (chance - outcome) ** 2;
            sums.reference += (reference - outcome) ** 2;
            const bin = target.bins[Math.min(9, Math.floor(chance * 10 + 1e-9))];
            if (bin) [bin.n, bin.predicted, bin.observed] = [bin.n + 1, bin.predicted + chance, bin.observed + outcome];
            const key = `${park.code} ${bucket.elapsed}`;
            for (const [groups, of] of [
              [target.groups, key],
              [target.phased, `${key} ${phase}`],
            ] as const) {
              const group = groups[horizon].get(of) ?? { n: 0, reopened: 0 };
              groups[horizon].set(of, { n: group.n + 1, reopened: group.reopened + outcome });
            }
          }
        }
      }
    }
    byPark.set(park.code, score);
  }
  return { byPark, pooled };
}

/** 1 − ours ÷ reference; NaN without cases. */
export const skillOf = (score: Score, horizon: Horizon): number => {
  const { n, ours, reference } = score.brier[horizon];
  return n > 0 && reference > 0 ? 1 - ours / reference : Number.NaN;
};

/**
 * The skill of an oracle that serves, in each park and elapsed bucket (`phased`: and part of the
 * day), the rate the validation days themselves had: not a forecast, the ceiling of any such odds.
 */
export function ceilingOf(score: Score, horizon: Horizon, phased = false): number {
  const { reference } = score.brier[horizon];
  let ours = 0;
  for (const { n, reopened } of score[phased ? 'phased' : 'groups'][horizon].values())
    ours += reopened * (1 - reopened / n);
  return reference > 0 ? 1 - ours / reference : Number.NaN;
}

/** Mean gap between served chance and observed rate over the 10-point bins, weighted by count, in points. */
export function calibrationOf(score: Score): number {
  const total = score.bins.reduce((sum, bin) => sum + bin.n, 0);
  if (total === 0) return Number.NaN;
  const gaps = score.bins.reduce((sum, bin) => sum + (bin.n ? Math.abs(bin.predicted - bin.observed) : 0), 0);
  return (100 * gaps) / total;
}
