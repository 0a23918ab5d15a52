import { badRequest, notFound } from '../../platform/errors.ts';
import { listKeys, readRecord } from '../../platform/store.ts';
import { HOUR_MS, MINUTE_MS } from '../../platform/time-units.ts';
import { shiftDate } from '../local-time.ts';
import { findPark, PARKS, type Park } from '../parks.ts';
import {
  type Accuracy,
  type AccuracyRow,
  type AccuracyWindow,
  type ForecastBasis,
  GRADED_HORIZONS,
  GRADES_PREFIX,
  type GradedHorizon,
  type HorizonSums,
  type ParkAccuracy,
  type ParkDayGrades,
  ParkDayGradesSchema,
} from './accuracy-schemas.ts';
import { bootstrapInterval } from './bootstrap.ts';
import { servedBasisOf } from './forecast-basis.ts';

// The scorecard: the grades of finished park-days (`grades/<slug>/<date>`, written by the grading
// job) summed over the last 7 and 28 graded dates, per park and horizon, with a bootstrap interval.

/** The windows published, in graded dates. */
export const WINDOW_DAYS = [7, 28] as const;
/** Below this many graded forecasts a skill is noise: the row says so instead. */
export const MIN_GRADED = 30;

export const TRUTH =
  'the posted wait recorded nearest the target time, within 5 minutes, the ride open at issue and at target';
/** The recorder samples every open park every 5 minutes: the truth is one of those samples. */
export const SAMPLING_MINUTES = 5;

/** Graded park-days by park slug, in the order the answer lists the parks. */
export type GradesByPark = ReadonlyMap<string, readonly ParkDayGrades[]>;
/** What each park's 30-minute `forecast` serves now (forecast-basis.ts); a park not in it, the model. */
export type BasisByPark = ReadonlyMap<string, ForecastBasis>;

/**
 * The scorecard for the parks of `gradesByPark` (each listed, graded or not): each window is the
 * newest graded date (`newest`, else the newest in `gradesByPark`) and the dates before it; each
 * park's 30-minute rows say its `basis`. Pure, and a function of the grades and bases alone (no
 * clock), so the same records give the same bytes and ETag.
 */
export function accuracyBody(
  gradesByPark: GradesByPark,
  newest?: string | null,
  basisByPark: BasisByPark = new Map(),
): Accuracy {
  const to = newest ?? newestDateOf(gradesByPark);
  const windows = WINDOW_DAYS.map((days) => windowOf(gradesByPark, days, to, basisByPark));
  const from = windows.at(-1)?.from ?? null;
  let generatedAt: number | null = null;
  for (const grades of gradesByPark.values()) {
    for (const day of grades) {
      if (from !== null && day.date >= from && (generatedAt === null || day.gradedAt > generatedAt))
        generatedAt = day.gradedAt;
    }
  }
  return {
    generatedAt,
    truth: TRUTH,
    samplingMinutes: SAMPLING_MINUTES,
    source: 'queue-times.com',
    windows,
  };
}

function windowOf(
  gradesByPark: GradesByPark,
  days: (typeof WINDOW_DAYS)[number],
  to: string | null,
  basisByPark: BasisByPark,
): AccuracyWindow {
  const from = to === null ? null : shiftDate(to, -(days - 1));
  const parks: ParkAccuracy[] = [];
  const all: ParkDayGrades[] = [];
  for (const [park, grades] of gradesByPark) {
    const kept = inWindowOf(grades, to, days);
    all.push(...kept);
    parks.push({
      park,
      days: kept.length,
      horizons: rowsOf(kept, basisByPark.get(park) ?? 'model'),
      bestTime: bestTimeOf(kept),
    });
  }
  return { days, from, to, parks, pooled: rowsOf(all) };
}

/** A park's graded days in the window of `days` dates ending at `to`, oldest first. */
export function inWindowOf(grades: readonly ParkDayGrades[], to: string | null, days: number): ParkDayGrades[] {
  if (to === null) return [];
  const from = shiftDate(to, -(days - 1));
  return grades.filter((day) => from <= day.date && day.date <= to).sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The rows by horizon; `basis30`: what the 30-minute `forecast` serves (60 and 120: the model's outlook, always). */
const rowsOf = (parkDays: readonly ParkDayGrades[], basis30: ForecastBasis = 'model') =>
  GRADED_HORIZONS.map((minutes) =>
    rowOf(
      minutes,
      parkDays.map((day) => day.horizons[minutes]),
      minutes === 30 ? basis30 : 'model',
    ),
  );

const sumOf = (days: readonly HorizonSums[]): HorizonSums => {
  const total = { n: 0, absError: 0, error: 0, absErrorPersistence: 0, absErrorUsual: 0, within5: 0, within10: 0 };
  for (const day of days) for (const key of Object.keys(total) as (keyof HorizonSums)[]) total[key] += day[key];
  return total;
};

/** 1 − error ÷ the better reference's error; null when both references were exact. */
const skillOf = ({ absError, absErrorPersistence, absErrorUsual }: HorizonSums) => {
  const reference = Math.min(absErrorPersistence, absErrorUsual);
  return reference > 0 ? 1 - absError / reference : null;
};

/** One horizon over a window's park-days. */
export function rowOf(
  minutes: GradedHorizon,
  days: readonly HorizonSums[],
  basis: ForecastBasis = 'model',
): AccuracyRow {
  const sums = sumOf(days);
  const { n } = sums;
  const mean = (total: number, round: (value: number) => number) => (n === 0 ? null : round(total / n));
  const row: AccuracyRow = {
    minutes,
    n,
    mae: mean(sums.absError, round1),
    bias: mean(sums.error, round1),
    maePersistence: mean(sums.absErrorPersistence, round1),
    maeUsual: mean(sums.absErrorUsual, round1),
    within5: mean(sums.within5, round3),
    within10: mean(sums.within10, round3),
    skill: null,
    skillLow: null,
    skillHigh: null,
    basis,
  };
  if (n === 0) return { ...row, note: 'Nothing graded in this window yet.' };
  if (n < MIN_GRADED)
    return { ...row, note: `Only ${n} graded: too few forecasts for a skill (at least ${MIN_GRADED}).` };
  const skill = skillOf(sums);
  if (skill === null) return { ...row, note: 'Both references were exact: no skill can be computed.' };
  if (days.length < 2) return { ...row, skill: round3(skill), note: 'One graded day: no interval yet.' };
  const [low, high] = bootstrapInterval(days);
  return {
    ...row,
    skill: round3(skill),
    skillLow: low === null ? null : round3(low),
    skillHigh: high === null ? null : round3(high),
  };
}

function bestTimeOf(days: readonly ParkDayGrades[]): ParkAccuracy['bestTime'] {
  let n = 0;
  let atBest = 0;
  let restMean = 0;
  let regret = 0;
  for (const { bestTime } of days) {
    n += bestTime.n;
    atBest += bestTime.atBest;
    restMean += bestTime.restMean;
    regret += bestTime.regret;
  }
  return {
    n,
    belowRestOfDay: n === 0 || restMean <= 0 ? null : round3(1 - atBest / restMean),
    regretMinutes: n === 0 ? null : round1(regret / n),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

function newestDateOf(gradesByPark: GradesByPark): string | null {
  let newest: string | null = null;
  for (const grades of gradesByPark.values()) {
    for (const { date } of grades) if (newest === null || date > newest) newest = date;
  }
  return newest;
}

const GRADES_KEY = /^grades\/([^/]+)\/(\d{4}-\d{2}-\d{2})$/;

/**
 * The grading job runs hourly; an answer is kept until a few minutes after the next full hour, so a
 * newly graded day shows within about an hour of its grading whenever the job runs in the hour.
 */
const GRADING_RUN_MS = 5 * MINUTE_MS;
/** After a Blobs failure the empty answer is kept briefly, not until the next grading run. */
const DEGRADED_MAX_AGE_SECONDS = 60;

/**
 * The scorecard of one park, or of every park (`null`), read from the stored grades, never written.
 * The windows end at the newest date graded at any park, so a park's row is the same in both answers.
 * Blobs is an aid: without it every park shows nothing graded, and the answer is cached briefly.
 */
export async function getAccuracy(park: Park | null): Promise<{ body: Accuracy; maxAgeSeconds: number }> {
  const now = Date.now();
  const parks = park ? [park] : PARKS;
  const until = Math.floor((now - GRADING_RUN_MS) / HOUR_MS) * HOUR_MS + HOUR_MS + GRADING_RUN_MS;
  const maxAgeSeconds = Math.max(1, Math.ceil((until - now) / 1000));
  try {
    const [{ gradesByPark, newest }, bases] = await Promise.all([
      readGrades(parks),
      Promise.all(parks.map((entry) => servedBasisOf(entry.slug))),
    ]);
    const basisByPark = new Map(parks.map((entry, index) => [entry.slug, bases[index] ?? 'model']));
    return { body: accuracyBody(gradesByPark, newest, basisByPark), maxAgeSeconds };
  } catch (error) {
    console.warn(`Blobs unavailable for the scorecard: ${(error as Error).message}`);
    const empty = new Map(parks.map((entry) => [entry.slug, []]));
    return { body: accuracyBody(empty), maxAgeSeconds: DEGRADED_MAX_AGE_SECONDS };
  }
}

/** One listing of every park's grades, then the records of the longest window, for `parks` only. */
export async function readGrades(
  parks: readonly Park[],
): Promise<{ gradesByPark: GradesByPark; newest: string | null }> {
  const keys = (await listKeys('wait-times', GRADES_PREFIX)).flatMap((key) => {
    const match = GRADES_KEY.exec(key);
    return match && findPark(match[1] as string) ? [{ key, slug: match[1] as string, date: match[2] as string }] : [];
  });
  const newest = keys.reduce<string | null>((max, { date }) => (max === null || date > max ? date : max), null);
  const from = newest === null ? null : shiftDate(newest, -(Math.max(...WINDOW_DAYS) - 1));
  const wanted = new Set(parks.map((entry) => entry.slug));
  const read = keys.filter(({ slug, date }) => wanted.has(slug) && from !== null && date >= from);
  const records = await Promise.all(read.map(({ key }) => readRecord('wait-times', key, ParkDayGradesSchema)));
  const gradesByPark = new Map<string, ParkDayGrades[]>(parks.map((entry) => [entry.slug, []]));
  // Filed by key: the key names the park whatever the record says.
  for (const [index, { slug }] of read.entries()) {
    const record = records[index];
    if (record) gradesByPark.get(slug)?.push(record);
  }
  return { gradesByPark, newest };
}

/** The optional `park` query parameter: absent, every park; empty, 400; not a slug, 404. */
export function parkOrEveryPark(value: string | null): Park | null {
  if (value === null) return null;
  if (value === '') throw badRequest('empty park');
  const park = findPark(value);
  if (!park) throw notFound('unknown park');
  return park;
}
