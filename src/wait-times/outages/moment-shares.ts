/**
 * What the reopen odds are counted from (docs/outages.md), pure: the moments a visitor saw a past
 * outage down, and whether each was followed by a reopening within 15, 30 and 60 minutes, the very
 * outcome the odds are scored on. A ride still down at the closing did not reopen for anyone, so
 * the closing counts as "not back" rather than as censoring (a Kaplan–Meier curve read it as
 * unknown and served too much); only an outage lost in a recorder gap is censored: its moments whose
 * horizon passes the gap are left out.
 */

/** The odds are given for these horizons, in minutes. */
export const REOPEN_HORIZONS = [15, 30, 60] as const;
export type Horizon = (typeof REOPEN_HORIZONS)[number];

/**
 * One past outage: how long it was watched; whether it ended with the ride open; `lost`: cut by a
 * gap (else by the closing or the day's end). `sinceOpening` and `toClosing`: minutes from the
 * park's opening to its start and from its start to the closing; null or absent, hours unknown.
 */
export interface Duration {
  minutes: number;
  reopened: boolean;
  lost?: boolean;
  sinceOpening?: number | null;
  toClosing?: number | null;
}

/**
 * The part of the day a ride is down in: the first 90 minutes after the opening (opening delays
 * end sooner) and the last 2 hours before the closing (rides down then often stay down) differ from
 * the rest of the day; chosen on the training days only (docs/outages.md).
 */
export const PHASES = ['opening', 'day', 'closing'] as const;
export type Phase = (typeof PHASES)[number];
export const OPENING_MINUTES = 90;
export const CLOSING_MINUTES = 120;

/** The phase of a moment; null when the hours are unknown. */
export function phaseOf(minutesSinceOpening: number | null, minutesToClosing: number | null): Phase | null {
  if (minutesSinceOpening === null || minutesToClosing === null) return null;
  if (minutesSinceOpening < OPENING_MINUTES) return 'opening';
  return minutesToClosing < CLOSING_MINUTES ? 'closing' : 'day';
}

/** Down moments of a cell and, per horizon, those with a known outcome and those followed by a reopening. */
export interface MomentShare {
  /** Outages with at least one moment in the cell: what its share rests on. */
  outages: number;
  seen: Record<Horizon, number>;
  reopened: Record<Horizon, number>;
}

const zero = (): Record<Horizon, number> => ({ 15: 0, 30: 0, 60: 0 });

export const usable = (durations: readonly Duration[]): Duration[] =>
  durations.filter((duration) => Number.isFinite(duration.minutes) && duration.minutes >= 0);

/**
 * Adds one outage's moments with elapsed in [from, until) (and in `phase`, when given): every
 * `step` from its second closed sample (elapsed 2·step, 3·step, …), up to its first open sample
 * (reopened) or its last closed one (censored).
 */
function addMoments(share: MomentShare, duration: Duration, span: [number, number], step: number, phase?: Phase) {
  let counted = false;
  const [from, until] = span;
  for (let elapsed = Math.max(2 * step, step * Math.ceil(from / step)); elapsed < until; elapsed += step) {
    if (duration.reopened ? elapsed >= duration.minutes : elapsed > duration.minutes) break;
    if (phase && phaseAt(duration, elapsed) !== phase) continue;
    counted = true;
    for (const horizon of REOPEN_HORIZONS) {
      const back = duration.reopened && duration.minutes <= elapsed + horizon;
      if (duration.lost && !back && duration.minutes < elapsed + horizon) continue;
      share.seen[horizon]++;
      if (back) share.reopened[horizon]++;
    }
  }
  if (counted) share.outages++;
}

const phaseAt = ({ sinceOpening, toClosing }: Duration, elapsed: number) =>
  phaseOf(sinceOpening == null ? null : sinceOpening + elapsed, toClosing == null ? null : toClosing - elapsed);

/** The moments of some outages with elapsed in `span` minutes, in `phase` when given. */
export function momentShareOf(
  durations: readonly Duration[],
  span: [number, number],
  step: number,
  phase?: Phase,
): MomentShare {
  const share: MomentShare = { outages: 0, seen: zero(), reopened: zero() };
  for (const duration of usable(durations)) addMoments(share, duration, span, step, phase);
  return share;
}

/** A cell's share pulled towards this many outages' worth of its wider one: chosen on training days. */
export const PRIOR_OUTAGES = 48;

/**
 * A cell's share at a horizon pulled towards `prior` (its wider cell's), weighted by the outages it
 * rests on, not its moments (those of one outage are not independent): a small cell says little.
 */
export function shrunk(share: MomentShare, horizon: Horizon, prior: number | null): number | null {
  const [seen, reopened] = [share.seen[horizon], share.reopened[horizon]];
  if (seen === 0) return prior;
  if (prior === null) return reopened / seen;
  const weight = share.outages / (share.outages + PRIOR_OUTAGES);
  return weight * (reopened / seen) + (1 - weight) * prior;
}

/** The plain share over several cells at a horizon, or null without a moment. */
export function shareOf(shares: readonly MomentShare[], horizon: Horizon): number | null {
  const seen = shares.reduce((sum, share) => sum + share.seen[horizon], 0);
  const reopened = shares.reduce((sum, share) => sum + share.reopened[horizon], 0);
  return seen > 0 ? reopened / seen : null;
}
