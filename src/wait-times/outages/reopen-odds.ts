import type { ReopenBucket, ReopenTable, ReopenWithin } from './outage-schemas.ts';

/**
 * Reopen odds, pure, for the served table and the backtest alike (docs/outages.md): a Kaplan–Meier
 * estimate of how long outages last, censored ones included (a ride still down at closing tells
 * that it lasted at least that long), read conditionally on the time already down:
 * P(reopen ≤ T + h | down T) = 1 − S(T + h) ÷ S(T). An exponential would not do: the longer a ride
 * has been down, the less likely it is back soon.
 */

/** One past outage: how long it was watched, and whether it ended with the ride open (else censored). */
export interface Duration {
  minutes: number;
  reopened: boolean;
}

/** The odds are given for these horizons, in minutes. */
export const REOPEN_HORIZONS = [15, 30, 60] as const;
/** Elapsed buckets, minutes down so far: a bucket runs from its value to the next (the last to 240). */
export const ELAPSED_BUCKETS = [5, 15, 30, 60, 120] as const;
const LAST_BUCKET_ENDS = 240;
/** Fewer outages still running than this at a bucket, and the park's own curve gives way to the pool. */
export const MIN_RUNNING = 24;
/** The served odds are rounded to this: finer would claim more than the data knows. */
const ROUNDING = 0.05;
/**
 * Minutes between samples: a bucket averages over the moments a ride can be seen down, every
 * sample from the second closed one (2 samples after the last open one). The recorder polls every
 * 5 minutes; the backtest gives TouringPlans' own spacing.
 */
export const SAMPLE_MINUTES = 5;
/** The table is built from the outages of this many last days. */
export const ODDS_WINDOW_DAYS = 90;

/** The survival curve: at each minute an outage ended, the share of outages still down after it. */
export interface Survival {
  /** Minutes at which outages ended, ascending. */
  ends: number[];
  /** S just after each of `ends`. */
  survival: number[];
}

/** Kaplan–Meier over durations; censored ones leave the risk set without ending (ties: ends first). */
export function survivalOf(durations: readonly Duration[]): Survival {
  const sorted = durations
    .filter((duration) => Number.isFinite(duration.minutes) && duration.minutes >= 0)
    .toSorted((a, b) => a.minutes - b.minutes);
  const ends: number[] = [];
  const survival: number[] = [];
  let atRisk = sorted.length;
  let current = 1;
  for (let index = 0; index < sorted.length; ) {
    const minutes = sorted[index]?.minutes ?? 0;
    let [ended, left] = [0, 0];
    while (index < sorted.length && sorted[index]?.minutes === minutes) {
      if (sorted[index]?.reopened) ended++;
      left++;
      index++;
    }
    if (ended > 0 && atRisk > 0) {
      current *= 1 - ended / atRisk;
      ends.push(minutes);
      survival.push(current);
    }
    atRisk -= left;
  }
  return { ends, survival };
}

/** S(t): the share of outages still down after `t` minutes. */
export function survivalAt(curve: Survival, minutes: number): number {
  let value = 1;
  for (let index = 0; index < curve.ends.length && (curve.ends[index] ?? 0) <= minutes; index++) {
    value = curve.survival[index] ?? value;
  }
  return value;
}

/** P(reopen within `horizon` | down `elapsed`); null when no outage lasted that long. */
export function reopenChance(curve: Survival, elapsed: number, horizon: number): number | null {
  const now = survivalAt(curve, elapsed);
  return now > 0 ? 1 - survivalAt(curve, elapsed + horizon) / now : null;
}

/** Outages still running at `minutes` (watched longer than that): what an estimate there rests on. */
export const runningAt = (durations: readonly Duration[], minutes: number): number =>
  durations.filter((duration) => duration.minutes > minutes).length;

/**
 * The chance for a bucket, unrounded: averaged over its moments in 5-minute steps, each weighted by
 * the share still down then (a ride is seen down at elapsed T about as often as S(T)), so that it
 * fits a ride down anywhere in the bucket, not only at its start.
 */
export function bucketChance(curve: Survival, bucket: number, horizon: number, step = SAMPLE_MINUTES): number | null {
  const index = ELAPSED_BUCKETS.indexOf(bucket as (typeof ELAPSED_BUCKETS)[number]);
  const until = ELAPSED_BUCKETS[index + 1] ?? LAST_BUCKET_ENDS;
  let [ended, weight] = [0, 0];
  const first = Math.max(2 * step, step * Math.ceil(bucket / step));
  for (let elapsed = first; elapsed < until; elapsed += step) {
    const now = survivalAt(curve, elapsed);
    ended += now - survivalAt(curve, elapsed + horizon);
    weight += now;
  }
  return weight > 0 ? ended / weight : null;
}

const rounded = (chance: number) => Math.min(1, Math.max(0, Math.round(chance / ROUNDING) * ROUNDING));

/** The rounded odds at every horizon for a bucket, or null when any is unknown. */
function oddsOf(curve: Survival, bucket: number, step: number): ReopenWithin | null {
  const [a, b, c] = REOPEN_HORIZONS.map((horizon) => bucketChance(curve, bucket, horizon, step));
  if (a == null || b == null || c == null) return null;
  // Two decimals: 0.15000000000000002 would read badly in the JSON.
  const fix = (chance: number) => Number(rounded(chance).toFixed(2));
  return { '15': fix(a), '30': fix(b), '60': fix(c) };
}

/**
 * A park's reopen table: per elapsed bucket, its own curve where at least `MIN_RUNNING` of its
 * outages were still running at the bucket's start, else the pool of all parks (its own included),
 * else null with what the pool had. Never throws: no data gives null odds.
 */
export function reopenTableOf(
  park: readonly Duration[],
  pool: readonly Duration[],
  builtAt: number,
  step = SAMPLE_MINUTES,
): ReopenTable {
  const curves = { park: survivalOf(park), pool: survivalOf(pool) };
  const buckets: ReopenBucket[] = ELAPSED_BUCKETS.map((elapsed) => {
    const own = runningAt(park, elapsed);
    if (own >= MIN_RUNNING)
      return { elapsed, reopenWithin: oddsOf(curves.park, elapsed, step), outages: own, scope: 'park' };
    const pooled = runningAt(pool, elapsed);
    const reopenWithin = pooled >= MIN_RUNNING ? oddsOf(curves.pool, elapsed, step) : null;
    return { elapsed, reopenWithin, outages: pooled, scope: 'all parks' };
  });
  return { version: 1, builtAt, buckets };
}

/**
 * The odds for a ride down now with the park closing in `minutesToClosing`: a ride does not reopen
 * for visitors after the park closes, so the chance within a horizon past closing is the chance
 * within the time left, read off the served horizons by straight lines from (0, 0). Unchanged when
 * the closing is an hour away or more, or unknown.
 */
export function beforeClosing(odds: ReopenWithin, minutesToClosing: number | null): ReopenWithin {
  if (minutesToClosing === null || !(minutesToClosing < 60)) return odds;
  const points: [number, number][] = [
    [0, 0],
    [15, odds['15']],
    [30, odds['30']],
    [60, odds['60']],
  ];
  const at = (minutes: number) => {
    const left = Math.max(0, Math.min(minutes, minutesToClosing));
    const upper = points.findIndex(([horizon]) => horizon >= left);
    const [x0, y0] = points[Math.max(0, upper - 1)] ?? [0, 0];
    const [x1, y1] = points[upper] ?? [0, 0];
    const chance = x1 === x0 ? y1 : y0 + ((y1 - y0) * (left - x0)) / (x1 - x0);
    return Number(rounded(chance).toFixed(2));
  };
  return { '15': at(15), '30': at(30), '60': at(60) };
}

/** The bucket for a ride down `minutes` so far: the last one starting at or before it; null before the first. */
export function bucketFor(table: ReopenTable, minutes: number): ReopenBucket | null {
  return table.buckets.findLast((bucket) => bucket.elapsed <= minutes) ?? null;
}
