import {
  type Duration,
  type Horizon,
  momentShareOf,
  PHASES,
  type Phase,
  phaseOf,
  REOPEN_HORIZONS,
  shareOf,
  shrunk,
  usable,
} from './moment-shares.ts';
import type { ReopenBucket, ReopenTable, ReopenWithin } from './outage-schemas.ts';

/**
 * A park's reopen table, pure, for the served odds and the backtest alike (docs/outages.md): per
 * elapsed bucket, the share of past down moments followed by a reopening within each horizon
 * (moment-shares.ts), the park's own pulled towards the pool's, refined by the part of the day;
 * `oddsFor` is what the read side serves for a ride down now.
 */

export { type Duration, REOPEN_HORIZONS };

/** Elapsed buckets, minutes down so far: a bucket runs from its value to the next (the last to 240). */
export const ELAPSED_BUCKETS = [5, 15, 30, 60, 120] as const;
const LAST_BUCKET_ENDS = 240;
/** Fewer outages still running than this at a bucket, and the park's own share gives way to the pool's. */
export const MIN_RUNNING = 24;
/** The served odds are rounded to this: finer would claim more than the data knows. */
const ROUNDING = 0.05;
/**
 * Minutes between samples: a bucket counts the moments a ride can be seen down, every sample from
 * the second closed one. The recorder polls every 5 minutes; the backtest gives TouringPlans' own spacing.
 */
export const SAMPLE_MINUTES = 5;
/** The table is built from the outages of this many last days. */
export const ODDS_WINDOW_DAYS = 90;

/** Outages still running at `minutes` (watched longer than that): what the park-or-pool choice rests on. */
export const runningAt = (durations: readonly Duration[], minutes: number): number =>
  usable(durations).filter((duration) => duration.minutes > minutes).length;

const rounded = (chance: number) => Math.min(1, Math.max(0, Math.round(chance / ROUNDING) * ROUNDING));
// Two decimals: 0.15000000000000002 would read badly in the JSON.
const fix = (chance: number) => Number(rounded(chance).toFixed(2));

/** Rounded odds at every horizon, never falling with the horizon; null when any is unknown. */
function oddsOf(chance: (horizon: Horizon) => number | null): ReopenWithin | null {
  const [a, b, c] = REOPEN_HORIZONS.map(chance);
  if (a == null || b == null || c == null) return null;
  const at15 = fix(a);
  const at30 = Math.max(at15, fix(b));
  return { '15': at15, '30': at30, '60': Math.max(at30, fix(c)) };
}

/**
 * A park's reopen table. Per elapsed bucket: the pool's share (all parks, its own included) pulled
 * towards the pool's over all buckets; where at least `MIN_RUNNING` of the park's own outages were
 * still running at the bucket's start, the park's share pulled towards that (`scope: "park"`), else
 * the pool's (`"all parks"`), else null with what the pool had. `phases`: the same refined by the
 * park's own moments in each part of the day. Never throws: no data gives null odds.
 */
export function reopenTableOf(
  park: readonly Duration[],
  pool: readonly Duration[],
  builtAt: number,
  step = SAMPLE_MINUTES,
): ReopenTable {
  const spans = ELAPSED_BUCKETS.map((elapsed, index): [number, number] => [
    elapsed,
    ELAPSED_BUCKETS[index + 1] ?? LAST_BUCKET_ENDS,
  ]);
  const pooled = spans.map((span) => momentShareOf(pool, span, step));
  const buckets = ELAPSED_BUCKETS.map((elapsed, index): ReopenBucket => {
    const span = spans[index] ?? [elapsed, LAST_BUCKET_ENDS];
    const poolShare = pooled[index] ?? momentShareOf(pool, span, step);
    const fromPool = (horizon: Horizon) => shrunk(poolShare, horizon, shareOf(pooled, horizon));
    const [own, running] = [momentShareOf(park, span, step), runningAt(park, elapsed)];
    const scope = running >= MIN_RUNNING ? 'park' : 'all parks';
    const chance = (horizon: Horizon) =>
      scope === 'park' ? shrunk(own, horizon, fromPool(horizon)) : fromPool(horizon);
    const outages = scope === 'park' ? running : runningAt(pool, elapsed);
    const reopenWithin = outages >= MIN_RUNNING ? oddsOf(chance) : null;
    if (!reopenWithin) return { elapsed, reopenWithin, outages, scope };
    const inPhase = (phase: Phase) => {
      const share = momentShareOf(park, span, step, phase);
      return oddsOf((horizon) => shrunk(share, horizon, chance(horizon)));
    };
    const [opening, day, closing] = PHASES.map(inPhase);
    return {
      elapsed,
      reopenWithin,
      outages,
      scope,
      phases: { opening: opening ?? null, day: day ?? null, closing: closing ?? null },
    };
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

/** What the read side knows of a ride down now; the hours' minutes null when the hours are unknown. */
export interface DownNow {
  minutesDown: number;
  minutesSinceOpening: number | null;
  minutesToClosing: number | null;
}

/** The served odds: what `down` carries besides since and minutes, and the bucket they came from. */
export type ServedOdds = Omit<ReopenBucket, 'phases'>;

/**
 * The odds served for a ride down now: its bucket's, in the part of the day it is down in (the
 * bucket's own odds when the hours are unknown or the table predates phases), cut at the closing.
 * Null without a table or before the first bucket: no odds rest on so short an outage.
 */
export function oddsFor(table: ReopenTable | null, now: DownNow): ServedOdds | null {
  const bucket = table ? bucketFor(table, now.minutesDown) : null;
  if (!bucket) return null;
  const phase = phaseOf(now.minutesSinceOpening, now.minutesToClosing);
  const odds = (phase && bucket.phases?.[phase]) || bucket.reopenWithin;
  const { elapsed, outages, scope } = bucket;
  return { elapsed, reopenWithin: odds && beforeClosing(odds, now.minutesToClosing), outages, scope };
}
