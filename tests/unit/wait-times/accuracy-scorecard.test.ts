import { describe, expect, it } from 'vitest';
import { accuracyBody, MIN_GRADED, rowOf } from '../../../src/wait-times/accuracy/accuracy.ts';
import { SYNTHETIC_PARK, syntheticParkDays } from '../../../src/wait-times/accuracy/accuracy-example.ts';
import {
  AccuracySchema,
  type HorizonSums,
  type ParkDayGrades,
} from '../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { bootstrapInterval } from '../../../src/wait-times/accuracy/bootstrap.ts';
import { shiftDate } from '../../../src/wait-times/local-time.ts';

// Every grade here is SYNTHETIC: sums made up so the expected scorecard can be worked out by hand.

const NOW = Date.parse('2026-11-21T09:00:00Z');

const sums = (n: number, mae: number, persistence: number, usual: number, extra: Partial<HorizonSums> = {}) => ({
  n,
  absError: n * mae,
  error: 0,
  absErrorPersistence: n * persistence,
  absErrorUsual: n * usual,
  within5: 0,
  within10: 0,
  ...extra,
});

/** A SYNTHETIC park-day with the same sums at every horizon. */
const day = (
  park: string,
  date: string,
  horizon: HorizonSums,
  bestTime = { n: 0, atBest: 0, restMean: 0, regret: 0 },
) =>
  ({
    version: 1,
    park,
    date,
    gradedAt: NOW,
    horizons: { 30: horizon, 60: horizon, 120: horizon },
    bestTime,
  }) satisfies ParkDayGrades;

describe('one row of the scorecard', () => {
  it.each([
    // Persistence is the better reference: 1 − 4 ÷ 5.
    { name: 'against persistence', days: [sums(100, 4, 5, 8)], skill: 0.2 },
    // The usual day is the better reference: 1 − 6 ÷ 5, worse than it.
    { name: 'against the usual day, losing', days: [sums(100, 6, 8, 5)], skill: -0.2 },
    // Sums, not a mean of daily skills: (100·4 + 300·2) ÷ (100·5 + 300·4) = 1000 ÷ 1700.
    { name: 'over days of different sizes', days: [sums(100, 4, 5, 9), sums(300, 2, 4, 9)], skill: 0.412 },
    // Both references exact: no skill, and the row says why.
    { name: 'when both references were exact', days: [sums(50, 1, 0, 0)], skill: null },
  ])('computes skill = 1 − mae ÷ min(maePersistence, maeUsual) $name', ({ days, skill }) => {
    expect(rowOf(30, days).skill).toBe(skill);
  });

  it.each([
    { n: 0, note: 'Nothing graded in this window yet.' },
    { n: 1, note: `Only 1 graded: too few forecasts for a skill (at least ${MIN_GRADED}).` },
    { n: MIN_GRADED - 1, note: `Only 29 graded: too few forecasts for a skill (at least ${MIN_GRADED}).` },
  ])('gives no skill and says why with n = $n', ({ n, note }) => {
    const row = rowOf(60, [sums(n, 3, 5, 5), sums(0, 0, 0, 0)]);
    expect(row).toMatchObject({ n, skill: null, skillLow: null, skillHigh: null, note });
    if (n === 0) expect(row).toMatchObject({ mae: null, bias: null, within5: null, within10: null });
  });

  it('gives a skill from 30 graded forecasts on', () => {
    expect(rowOf(30, [sums(15, 4, 5, 9), sums(15, 4, 5, 9)]).skill).toBe(0.2);
  });

  it('rounds minutes to one decimal and shares to three', () => {
    const row = rowOf(120, [sums(300, 4.4444, 5.55555, 6.66666, { error: 300 * -1.23, within5: 100, within10: 200 })]);
    expect(row).toMatchObject({
      mae: 4.4,
      bias: -1.2,
      maePersistence: 5.6,
      maeUsual: 6.7,
      within5: 0.333,
      within10: 0.667,
    });
    expect(row.skill).toBe(0.2);
    expect(row.basis).toBe('model');
  });

  it('gives no interval from one graded day', () => {
    expect(rowOf(30, [sums(400, 4, 5, 9)])).toMatchObject({
      skill: 0.2,
      skillLow: null,
      note: 'One graded day: no interval yet.',
    });
  });
});

describe('the bootstrap interval', () => {
  const days = syntheticParkDays('epcot', '2026-11-20', 28, SYNTHETIC_PARK, { seed: 7 }).map(
    (grades) => grades.horizons[30],
  );

  it('is reproducible: the same park-days give the same interval', () => {
    expect(bootstrapInterval(days)).toEqual(bootstrapInterval(days));
    expect(rowOf(30, days)).toEqual(rowOf(30, [...days]));
  });

  it('contains the point estimate of a stable set, and is narrow', () => {
    const row = rowOf(30, days);
    expect(row.skillLow).not.toBeNull();
    expect(row.skillLow as number).toBeLessThan(row.skill as number);
    expect(row.skillHigh as number).toBeGreaterThan(row.skill as number);
    expect((row.skillHigh as number) - (row.skillLow as number)).toBeLessThan(0.1);
  });

  it('collapses to the skill when every day is the same', () => {
    expect(
      rowOf(
        30,
        Array.from({ length: 5 }, () => sums(100, 4, 5, 9)),
      ),
    ).toMatchObject({
      skill: 0.2,
      skillLow: 0.2,
      skillHigh: 0.2,
    });
  });
});

describe('accuracyBody', () => {
  const to = '2026-11-20';
  const epcot = syntheticParkDays('epcot', to, 40, SYNTHETIC_PARK, { seed: 1 });
  const alphaland = syntheticParkDays('alphaland', shiftDate(to, -3), 10, SYNTHETIC_PARK, { seed: 2 });
  const body = accuracyBody(
    new Map([
      ['epcot', epcot],
      ['alphaland', alphaland],
      ['zetawood', []],
    ]),
  );

  it('answers a body the schema accepts, with the truth and the credit', () => {
    expect(AccuracySchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ samplingMinutes: 5, source: 'queue-times.com' });
    // The newest grading behind the answer, not a clock: the same grades give the same bytes.
    expect(body.generatedAt).toBe(Math.max(...[...epcot.slice(-28), ...alphaland].map((grades) => grades.gradedAt)));
    expect(body.truth).toMatch(/within 5 minutes/);
  });

  it.each([
    { days: 7, from: '2026-11-14', epcotDays: 7, alphalandDays: 4 },
    { days: 28, from: '2026-10-24', epcotDays: 28, alphalandDays: 10 },
  ])('ends the $days-day window at the newest date graded anywhere', ({ days, from, epcotDays, alphalandDays }) => {
    const window = body.windows.find((entry) => entry.days === days);
    expect(window).toMatchObject({ from, to });
    expect(window?.parks.map((park) => [park.park, park.days])).toEqual([
      ['epcot', epcotDays],
      ['alphaland', alphalandDays],
      ['zetawood', 0],
    ]);
  });

  it('lists a park with nothing graded, every row n 0 with a note', () => {
    const zetawood = body.windows[1]?.parks[2];
    expect(zetawood?.horizons.map((row) => [row.minutes, row.n, row.skill, row.note])).toEqual([
      [30, 0, null, 'Nothing graded in this window yet.'],
      [60, 0, null, 'Nothing graded in this window yet.'],
      [120, 0, null, 'Nothing graded in this window yet.'],
    ]);
    expect(zetawood?.bestTime).toEqual({ n: 0, belowRestOfDay: null, regretMinutes: null });
  });

  it('pools the parks by summing their park-days, per horizon', () => {
    for (const window of body.windows) {
      for (const [index, pooled] of window.pooled.entries()) {
        expect(pooled.n).toBe(window.parks.reduce((total, park) => total + (park.horizons[index]?.n ?? 0), 0));
      }
    }
    const inWindow = [...epcot.slice(-28), ...alphaland];
    const absError = inWindow.reduce((total, grades) => total + grades.horizons[60].absError, 0);
    const n = inWindow.reduce((total, grades) => total + grades.horizons[60].n, 0);
    expect(body.windows[1]?.pooled[1]?.mae).toBe(Math.round((absError / n) * 10) / 10);
  });

  it('says each park’s 30-minute basis (the model’s figures all the same); 60, 120 and pooled stay the model', () => {
    const grades = new Map([
      ['epcot', epcot],
      ['alphaland', alphaland],
    ]);
    const withBasis = accuracyBody(grades, null, new Map([['epcot', 'persistence']]));
    for (const window of withBasis.windows) {
      const [epcotRows, alphalandRows] = window.parks.map((park) => park.horizons.map((row) => row.basis));
      expect(epcotRows).toEqual(['persistence', 'model', 'model']);
      expect(alphalandRows).toEqual(['model', 'model', 'model']);
      expect(window.pooled.map((row) => row.basis)).toEqual(['model', 'model', 'model']);
    }
    const modelOnly = accuracyBody(grades);
    expect(withBasis.windows[1]?.parks[0]?.horizons[0]).toEqual({
      ...modelOnly.windows[1]?.parks[0]?.horizons[0],
      basis: 'persistence',
    });
  });

  it('grades the best times: below the rest of the day and the regret', () => {
    const graded = [day('epcot', to, sums(0, 0, 0, 0), { n: 10, atBest: 150, restMean: 200, regret: 42 })];
    expect(accuracyBody(new Map([['epcot', graded]])).windows[0]?.parks[0]?.bestTime).toEqual({
      n: 10,
      belowRestOfDay: 0.25,
      regretMinutes: 4.2,
    });
  });

  it('answers every park empty, windows without dates, when nothing is graded', () => {
    const empty = accuracyBody(new Map([['epcot', []]]));
    expect(empty.generatedAt).toBeNull();
    expect(empty.windows.map(({ days, from, to }) => ({ days, from, to }))).toEqual([
      { days: 7, from: null, to: null },
      { days: 28, from: null, to: null },
    ]);
  });

  it('gives one park the same rows alone as among all, and pooled equal to them', () => {
    const alone = accuracyBody(new Map([['alphaland', alphaland]]), to);
    for (const [index, window] of alone.windows.entries()) {
      expect(window.parks).toEqual([body.windows[index]?.parks[1]]);
      expect(window.pooled).toEqual(window.parks[0]?.horizons);
    }
  });
});
