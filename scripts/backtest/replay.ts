import { FORECAST_HORIZON_MS, trendAndForecastOf } from '../../src/wait-times/forecast/forecast.ts';
import { memoryHistory, recordSample } from '../../src/wait-times/wait-history.ts';
import type { PostedSample } from './posted-waits.ts';

/**
 * Replays a posted-wait series through the service's own code, in time order, with the clock
 * driven by the data: each observation becomes a history sample recorded by `recordSample` (the
 * same history pruning, 30-minute pairing and profile learning as GET /api/wait-times, on an
 * in-memory store that round-trips records through their schemas like Blobs), and each forecast
 * and trend comes from `trendAndForecastOf`, the function the endpoint answers with. The model only ever
 * sees the past. The first `learnShare` of the park days only teach; forecasts are scored on the
 * days after them (learning goes on, as it would in production).
 */

const MINUTE = 60_000;
/** Forecasts are scored against the posted wait 30 minutes later… */
export const HORIZON_MS = FORECAST_HORIZON_MS;
/** …taken as the last observation at or before that moment, if it is at most this old. */
export const TARGET_MAX_AGE_MS = 15 * MINUTE;
const RIDE_ID = '1';

export interface MethodScore {
  /** Mean absolute error, minutes. */
  mae: number;
  /** Share of forecasts within 5 and within 10 minutes of the outcome (0–1). */
  within5: number;
  within10: number;
}

export interface CallScore {
  /** How often the call was made, how often the wait then moved at all, and how often that way. */
  calls: number;
  moved: number;
  hits: number;
}

export interface ReplayResult {
  samples: number;
  learnDays: { count: number; first: string | undefined; last: string | undefined };
  testDays: { count: number; first: string | undefined; last: string | undefined };
  /** Scored forecasts: open ride, an outcome 30 minutes later, on a test day. */
  scored: number;
  persistence: MethodScore;
  linear: MethodScore;
  ours: MethodScore;
  /** Trend `up`/`down` against the sign of the change over the next 30 minutes. */
  trend: { up: CallScore; down: CallScore; flat: number };
  /** The same question for our forecast's direction (above or below the wait now). */
  forecastDirection: { up: CallScore; down: CallScore };
  /** Bytes of the stored profile record at the end (one ride). */
  profileBytes: number;
}

export interface ReplayOptions {
  timeZone: string;
  /** Share of the park days used only for learning before scoring starts (0–1). */
  learnShare: number;
}

class Errors {
  private sum = 0;
  private within5 = 0;
  private within10 = 0;
  private count = 0;
  add(forecast: number, outcome: number): void {
    const error = Math.abs(forecast - outcome);
    this.sum += error;
    if (error <= 5) this.within5++;
    if (error <= 10) this.within10++;
    this.count++;
  }
  score(): MethodScore {
    const n = Math.max(1, this.count);
    return { mae: this.sum / n, within5: this.within5 / n, within10: this.within10 / n };
  }
}

const call = (): CallScore => ({ calls: 0, moved: 0, hits: 0 });

/**
 * The outcome of a forecast made at `samples[index]`: the last observation at or before 30
 * minutes later, if it is later than the origin and at most 15 minutes old; `undefined` when
 * there is none (then the origin is not scored) and `null` when the ride was down then. `hint`
 * is an index to search on from (the search only moves forward as origins move forward).
 */
export function outcomeAfter(
  samples: readonly PostedSample[],
  index: number,
  hint = index,
): { wait: number | null | undefined; last: number } {
  const origin = samples[index];
  if (!origin) return { wait: undefined, last: hint };
  const target = origin.at + HORIZON_MS;
  let last = Math.max(hint, index);
  while ((samples[last + 1]?.at ?? Number.POSITIVE_INFINITY) <= target) last++;
  const observed = last > index ? samples[last] : undefined;
  return { wait: observed && target - observed.at <= TARGET_MAX_AGE_MS ? observed.wait : undefined, last };
}

export async function replay(samples: readonly PostedSample[], options: ReplayOptions): Promise<ReplayResult> {
  const days = [...new Set(samples.map((sample) => sample.day))].sort();
  const learnCount = Math.min(days.length, Math.floor(days.length * options.learnShare));
  const firstTestDay = days[learnCount];
  const history = memoryHistory();
  const persistence = new Errors();
  const linear = new Errors();
  const ours = new Errors();
  const trend = { up: call(), down: call(), flat: 0 };
  const forecastDirection = { up: call(), down: call() };
  let scored = 0;
  let cursor = 0;

  for (const [index, posted] of samples.entries()) {
    const { earlier, profile } = await recordSample(
      history,
      { at: posted.at, waits: { [RIDE_ID]: posted.wait } },
      options.timeZone,
    );
    if (firstTestDay === undefined || posted.day < firstTestDay || posted.wait === null) continue;
    const outcome = outcomeAfter(samples, index, cursor);
    cursor = outcome.last;
    if (outcome.wait === null || outcome.wait === undefined) continue;
    const wait = posted.wait;
    const ride = { id: RIDE_ID, wait, open: true };
    const outlook = trendAndForecastOf(ride, earlier, profile, posted.at, options.timeZone);
    const forecast = outlook.forecast ?? wait; // never null: the ride is open
    const change = outcome.wait - wait;
    scored++;
    persistence.add(wait, outcome.wait);
    linear.add(linearExtrapolation(wait, posted.at, earlier?.at, earlier?.waits[RIDE_ID]), outcome.wait);
    ours.add(forecast, outcome.wait);
    if (outlook.trend === 'flat') trend.flat++;
    else tally(trend[outlook.trend], outlook.trend === 'up' ? 1 : -1, change);
    if (forecast > wait) tally(forecastDirection.up, 1, change);
    if (forecast < wait) tally(forecastDirection.down, -1, change);
  }

  const learnDays = days.slice(0, learnCount);
  const testDays = days.slice(learnCount);
  return {
    samples: samples.length,
    learnDays: { count: learnDays.length, first: learnDays[0], last: learnDays.at(-1) },
    testDays: { count: testDays.length, first: testDays[0], last: testDays.at(-1) },
    scored,
    persistence: persistence.score(),
    linear: linear.score(),
    ours: ours.score(),
    trend,
    forecastDirection,
    profileBytes: history.profileBytes(),
  };
}

/**
 * Straight-line extrapolation of the change since the trend's comparison sample (20–45 minutes
 * earlier), scaled to 30 minutes, never below 0; persistence when there is no such sample.
 */
export function linearExtrapolation(
  wait: number,
  at: number,
  earlierAt: number | undefined,
  earlierWait: number | null | undefined,
): number {
  if (earlierAt === undefined || earlierWait === null || earlierWait === undefined || earlierAt >= at) return wait;
  return Math.max(0, wait + ((wait - earlierWait) * HORIZON_MS) / (at - earlierAt));
}

function tally(score: CallScore, direction: 1 | -1, change: number): void {
  score.calls++;
  if (change !== 0) score.moved++;
  if (Math.sign(change) === direction) score.hits++;
}
