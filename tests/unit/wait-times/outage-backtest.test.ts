import { describe, expect, it } from 'vitest';
import { parkOutagesOf, reopenedWithin } from '../../../scripts/backtest/outages.ts';
import { calibrationOf, ceilingOf, type Score, skillOf } from '../../../scripts/backtest/outages-score.ts';
import type { Observation, RideSeries } from '../../../scripts/backtest/replay.ts';
import type { Outage } from '../../../src/wait-times/outages/outage-schemas.ts';

// The backtest's reading of TouringPlans down periods: each ride on its own observations, about
// 7 minutes apart, with the service's rules.

const MINUTE = 60_000;
/** 10:00 in New York on 2018-03-01. */
const T0 = Date.parse('2018-03-01T15:00:00Z');
const HOURS = new Map([['2018-03-01', { opensAt: T0 - 60 * MINUTE, closesAt: T0 + 10 * 60 * MINUTE }]]);

/** A ride posted every 7 minutes from T0 (+ `offset` minutes): "o" open, "x" down (-999). */
const ride = (id: string, pattern: string, offset = 0): RideSeries => ({
  id,
  name: id,
  observations: [...pattern].map(
    (c, step): Observation => ({ at: T0 + (offset + 7 * step) * MINUTE, wait: c === 'o' ? 20 : null }),
  ),
});

const outagesOf = (rides: RideSeries[]) =>
  parkOutagesOf({ code: 'AK', name: 'Animal Kingdom', timeZone: 'America/New_York', rides, hours: HOURS }, 1);

describe('parkOutagesOf: TouringPlans down periods by the service’s rules', () => {
  it('finds an outage from the last open observation, seen down from the second closed one', () => {
    const { found, sampleMinutes } = outagesOf([ride('a', 'ooxxxoo')]);
    expect(found).toEqual([
      {
        day: '2018-03-01',
        outage: { ride: 'a', from: T0 + 7 * MINUTE, to: T0 + 35 * MINUTE, minutes: 28, censored: null },
        moments: [T0 + 21 * MINUTE, T0 + 28 * MINUTE],
        opensAt: T0 - 60 * MINUTE,
        closesAt: T0 + 600 * MINUTE,
      },
    ]);
    expect(sampleMinutes).toBe(7);
  });

  it('leaves out a blip and 5 rides going down in one 5-minute slot (a hold), and censors at a gap', () => {
    expect(outagesOf([ride('a', 'ooxoo')]).found).toEqual([]);
    // First closed observations within one 5-minute slot (10:14:00 to 10:14:48).
    const hold = ['a', 'b', 'c', 'd', 'e'].map((id, index) => ride(id, 'ooxxxo', index * 0.2));
    expect(outagesOf(hold)).toMatchObject({ found: [], holds: 1 });
    const gappy: RideSeries = {
      id: 'g',
      name: 'g',
      observations: [0, 7, 14, 21, 45].map((minute, index) => ({
        at: T0 + minute * MINUTE,
        wait: index < 2 ? 20 : null,
      })),
    };
    expect(outagesOf([gappy]).found[0]?.outage).toMatchObject({ censored: 'gap', to: T0 + 21 * MINUTE });
  });
});

describe('reopenedWithin: the outcome at a moment a ride is down', () => {
  const outage = (to: number, censored: Outage['censored']): Outage => ({
    ride: 'a',
    from: 0,
    to,
    minutes: 0,
    censored,
  });
  it.each([
    { name: 'reopened in time', outage: outage(40 * MINUTE, null), expected: 1 },
    { name: 'reopened later', outage: outage(50 * MINUTE, null), expected: 0 },
    { name: 'still down when the park closed', outage: outage(20 * MINUTE, 'closing'), expected: 0 },
    { name: 'watched past the horizon, then a gap', outage: outage(45 * MINUTE, 'gap'), expected: 0 },
    { name: 'lost in a gap before the horizon', outage: outage(20 * MINUTE, 'gap'), expected: undefined },
  ])('$name', ({ outage: down, expected }) => {
    expect(reopenedWithin(down, 10 * MINUTE, 30)).toBe(expected);
  });
});

describe('the score’s arithmetic: skill, calibration, the ceilings', () => {
  const groups = (cells: [string, number, number][]) =>
    new Map(cells.map(([key, n, reopened]) => [key, { n, reopened }]));
  /** 10 moments at 15 minutes, 4 followed by a reopening; ours and the reference's squared errors given. */
  const score = (ours: number, byBucket: [string, number, number][], byPhase: [string, number, number][]): Score => ({
    moments: 10,
    unanswered: 0,
    pooled: 0,
    brier: {
      15: { n: 10, ours, reference: 2.4 },
      30: { n: 0, ours: 0, reference: 0 },
      60: { n: 0, ours: 0, reference: 0 },
    },
    bins: Array.from({ length: 10 }, (_, index) =>
      // 6 moments served 0.2 with 1 reopened, 4 served 0.7 with 3: gaps 0.2 and 0.2 of 10.
      index === 2
        ? { n: 6, predicted: 1.2, observed: 1 }
        : index === 7
          ? { n: 4, predicted: 2.8, observed: 3 }
          : { n: 0, predicted: 0, observed: 0 },
    ),
    groups: { 15: groups(byBucket), 30: new Map(), 60: new Map() },
    phased: { 15: groups(byPhase), 30: new Map(), 60: new Map() },
  });
  it.each([
    // The reference (0.4 for all) errs 10 · 0.24 = 2.4; ours 1.2 is half of it.
    { name: 'half the reference’s error', ours: 1.2, skill: 0.5 },
    { name: 'as good as the reference', ours: 2.4, skill: 0 },
    { name: 'worse', ours: 3.6, skill: -0.5 },
  ])('$name: skill $skill', ({ ours, skill }) => {
    expect(skillOf(score(ours, [], []), 15)).toBeCloseTo(skill, 10);
    expect(calibrationOf(score(ours, [], []))).toBeCloseTo(4, 10);
  });

  it('gives the oracle its cells’ own rates: the finer the cells, the higher', () => {
    const byBucket: [string, number, number][] = [['AK 5', 10, 4]];
    // Split by the part of the day: 5 moments with 4 reopened, 5 with none.
    const byPhase: [string, number, number][] = [
      ['AK 5 opening', 5, 4],
      ['AK 5 day', 5, 0],
    ];
    const result = score(0, byBucket, byPhase);
    expect(ceilingOf(result, 15)).toBeCloseTo(0, 10); // one cell at the plain rate: no better than the reference
    expect(ceilingOf(result, 15, true)).toBeCloseTo(1 - 0.8 / 2.4, 10); // 5 · 0.8 · 0.2 = 0.8
    expect(ceilingOf(result, 30)).toBeNaN();
  });
});
