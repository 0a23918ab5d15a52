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
/** Minutes between the moments a bucket averages over (the recorder samples every 5). */
const STEP_MINUTES = 5;
/** No ride is seen down sooner: an outage shows at its second closed sample, 2 polls after the last open one. */
export const FIRST_SEEN_MINUTES = 10;
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
export function bucketChance(curve: Survival, bucket: number, horizon: number): number | null {
  const index = ELAPSED_BUCKETS.indexOf(bucket as (typeof ELAPSED_BUCKETS)[number]);
  const until = ELAPSED_BUCKETS[index + 1] ?? LAST_BUCKET_ENDS;
  let [ended, weight] = [0, 0];
  for (let elapsed = Math.max(bucket, FIRST_SEEN_MINUTES); elapsed < until; elapsed += STEP_MINUTES) {
    const now = survivalAt(curve, elapsed);
    ended += now - survivalAt(curve, elapsed + horizon);
    weight += now;
  }
  return weight > 0 ? ended / weight : null;
}

const rounded = (chance: number) => Math.min(1, Math.max(0, Math.round(chance / ROUNDING) * ROUNDING));

/** The rounded odds at every horizon for a bucket, or null when any is unknown. */
function oddsOf(curve: Survival, bucket: number): ReopenWithin | null {
  const [a, b, c] = REOPEN_HORIZONS.map((horizon) => bucketChance(curve, bucket, horizon));
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
export function reopenTableOf(park: readonly Duration[], pool: readonly Duration[], builtAt: number): ReopenTable {
  const curves = { park: survivalOf(park), pool: survivalOf(pool) };
  const buckets: ReopenBucket[] = ELAPSED_BUCKETS.map((elapsed) => {
    const own = runningAt(park, elapsed);
    if (own >= MIN_RUNNING) return { elapsed, reopenWithin: oddsOf(curves.park, elapsed), outages: own, scope: 'park' };
    const pooled = runningAt(pool, elapsed);
    const reopenWithin = pooled >= MIN_RUNNING ? oddsOf(curves.pool, elapsed) : null;
    return { elapsed, reopenWithin, outages: pooled, scope: 'all parks' };
  });
  return { version: 1, builtAt, buckets };
}

/** The bucket for a ride down `minutes` so far: the last one starting at or before it; null before the first. */
export function bucketFor(table: ReopenTable, minutes: number): ReopenBucket | null {
  return table.buckets.findLast((bucket) => bucket.elapsed <= minutes) ?? null;
}
