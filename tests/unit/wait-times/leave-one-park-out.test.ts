import { describe, expect, it } from 'vitest';
import {
  type BacktestPark,
  leaveOneParkOut,
  leaveOneParkOutReport,
} from '../../../scripts/backtest/leave-one-park-out.ts';
import { replay } from '../../../scripts/backtest/replay.ts';
import { POOLED } from '../../../scripts/backtest/tally.ts';
import { BLEND } from '../../../src/wait-times/forecast/outlook.ts';
import { gridSamples } from '../../../src/wait-times/forecast/park-history.ts';
import { EASTERN, eastern, loadSlice } from '../../support/touringplans.ts';

/** A park of one real TouringPlans.com series (17–24 Feb 2019), its waits scaled (a made-up park when not 1). */
function park(code: string, ride: 'AK85' | 'AK86', scale = 1): BacktestPark {
  const samples = loadSlice(ride).map((sample) => ({
    ...sample,
    wait: sample.wait === null ? null : sample.wait * scale,
  }));
  const rides = [{ id: ride, name: ride, samples, observations: samples }];
  return { code, name: code, series: { rides, samples: gridSamples(rides) }, timeZone: EASTERN };
}

const options = { trainShare: 0.5, horizons: [60], log: () => {} };

describe('leaveOneParkOut', () => {
  it('fits each fold on the other parks only and scores the left-out park on its validation days', {
    timeout: 120_000,
  }, async () => {
    const first = await leaveOneParkOut([park('X', 'AK85'), park('Z', 'AK86')], options);
    const second = await leaveOneParkOut([park('X', 'AK85'), park('Z', 'AK86', 2)], options);
    const blendOf = (run: typeof first, code: string) => run.folds.find((fold) => fold.park.code === code)?.blend;

    expect(first.folds.map(({ park: { code }, tunedOn }) => [code, tunedOn])).toEqual([
      ['X', ['Z']],
      ['Z', ['X']],
    ]);
    // Z's own waits never reach its fold; they do reach the folds tuned on it.
    expect(blendOf(second, 'Z')).toEqual(blendOf(first, 'Z'));
    expect(blendOf(second, 'X')).not.toEqual(blendOf(first, 'X'));
    // Up to 30 minutes BLEND is the shipped one; from an hour on it is fitted.
    expect(blendOf(first, 'X')?.slice(0, 2)).toEqual(BLEND.slice(0, 2));
    expect(blendOf(first, 'X')?.map(({ horizon }) => horizon)).toEqual([0, 30, 60, 120, 240, 360]);

    const scored = (code: string) => first.tally.get('validation', code, 'all 60')?.n ?? 0;
    expect(first.folds[0]?.days.validation).toEqual(['2019-02-21', '2019-02-22', '2019-02-23', '2019-02-24']);
    expect(scored('X')).toBeGreaterThan(300);
    expect(first.tally.get('validation', POOLED, 'all 60')?.n).toBe(scored('X') + scored('Z'));
    expect(first.tally.get('training', POOLED, 'all 60')).toBeUndefined();
    expect(first.tally.get('validation', 'X', 'best time')?.checks).toBeGreaterThan(0);

    const report = leaveOneParkOutReport(first.folds, first.tally, 'Folds');
    // Scored at 60 minutes only: the 30-minute cells are empty.
    expect(report).toMatch(/^\| X \| Z \| 4 days, 2019-02-21 … 2019-02-24 \| all \| 0 \| – \| \d\.\d{3} \(/m);
    expect(report).toMatch(
      /^Goals, pooled over the left-out parks: .* \d\.\d{3} at 60 min \(goal ≤ 0\.8: (met|missed)\)/m,
    );
  });
});

describe('replay with the published hours', () => {
  // Animal Kingdom's published hours for the slice (TouringPlans.com park metadata): 9:00–20:00,
  // from 8:00 on the two mornings with Extra Magic Hours.
  const dates = ['17', '18', '19', '20', '21', '22', '23', '24'].map((day) => `2019-02-${day}`);
  const hours = new Map(
    dates.map((date) => [
      date,
      {
        opensAt: eastern(`${date} ${['18', '23'].includes(date.slice(8)) ? '08' : '09'}:00`),
        closesAt: eastern(`${date} 20:00`),
      },
    ]),
  );

  it('bounds the best time by the day’s hours, the forecasts of usual days unchanged', {
    timeout: 60_000,
  }, async () => {
    const { series } = park('AK', 'AK85');
    const options = { timeZone: EASTERN, trainShare: 0.5, horizons: [60] };
    const [without, withHours] = await Promise.all([
      replay(series, options).then((run) => run.tally),
      replay(series, { ...options, hours }).then((run) => run.tally),
    ]);
    expect(withHours?.get('validation', POOLED, 'all 60')).toEqual(without.get('validation', POOLED, 'all 60'));
    const best = (tally: typeof without) => tally.get('validation', POOLED, 'best time') ?? {};
    expect(best(withHours).checks).toBe(best(without).checks);
    // Advice to come after the ride has closed for the day: never more with the hours known.
    expect(best(withHours).afterClose ?? 0).toBeLessThanOrEqual(best(without).afterClose ?? 0);
    expect(best(without).afterClose).toBeGreaterThan(0);
  });
});
