import { describe, expect, it } from 'vitest';
import { parsePostedWaits } from '../../../scripts/backtest/posted-waits.ts';
import { HORIZON_MS, linearExtrapolation, outcomeAfter, replay } from '../../../scripts/backtest/replay.ts';
import { EASTERN, eastern, loadSlice } from '../../support/touringplans.ts';

const MINUTE = 60_000;
const asUtc = (wall: number) => wall;
const at = (reading: string) => Date.parse(`${reading.replace(' ', 'T')}Z`);

describe('parsePostedWaits', () => {
  it.each([
    ['the README order', 'date,datetime,SPOSTMIN,SACTMIN\n02/22/2019,2019-02-22 11:40:00,30,\n'],
    ['the R package order', 'date,datetime,SACTMIN,SPOSTMIN\n02/22/2019,2019-02-22 11:40:00,,30\n'],
    ['only the two columns, CRLF, quoted', '"datetime","SPOSTMIN"\r\n"2019-02-22 11:40","30"\r\n'],
  ])('finds the columns by name (%s)', (_case, csv) => {
    expect(parsePostedWaits(csv, asUtc).samples).toEqual([{ at: at('2019-02-22 11:40'), day: '2019-02-22', wait: 30 }]);
  });

  it('reads the example of the TouringPlans README: actual-wait rows are skipped, -999 is down', () => {
    const csv = [
      'date,datetime,SPOSTMIN,SACTMIN',
      '02/22/2019,2019-02-22 11:40:00,30,',
      '02/22/2019,2019-02-22 11:40:00,,18',
      '02/22/2019,2019-02-22 11:45:00,-999,',
    ].join('\n');
    expect(parsePostedWaits(csv, asUtc).samples).toEqual([
      { at: at('2019-02-22 11:40'), day: '2019-02-22', wait: 30 },
      { at: at('2019-02-22 11:45'), day: '2019-02-22', wait: null },
    ]);
  });

  it.each([
    [
      'a later row at the same time wins (the data has a few)',
      '2019-02-19 14:02:00,-999\n2019-02-19 14:02:00,255',
      1,
      255,
      0,
    ],
    ['after midnight belongs to the park day before', '2019-02-20 00:30:00,10', 1, 10, 0],
    ['a bad time is skipped and counted', '2019-02-30 10:00:00,10\nyesterday,10', 0, undefined, 2],
    ['a negative other than -999 is skipped and counted', '2019-02-19 10:00:00,-5', 0, undefined, 1],
  ])('%s', (_case, rows, count, wait, skipped) => {
    const series = parsePostedWaits(`datetime,SPOSTMIN\n${rows}`, asUtc);
    expect(series.samples).toHaveLength(count);
    expect(series.samples[0]?.wait).toBe(wait);
    expect(series.skipped).toBe(skipped);
    if (_case.includes('midnight')) expect(series.samples[0]?.day).toBe('2019-02-19');
  });

  it('refuses a file without the columns it needs, naming them', () => {
    expect(() => parsePostedWaits('date,time,posted\n', asUtc)).toThrow(/"datetime" and "SPOSTMIN"/);
  });

  it('places the real slice in Eastern time, in order', () => {
    const slice = loadSlice('AK86');
    expect(slice[0]).toEqual({ at: eastern('2019-02-17 08:17'), day: '2019-02-17', wait: null });
    expect(slice.every((sample, i) => i === 0 || sample.at > (slice[i - 1]?.at ?? 0))).toBe(true);
  });
});

describe('outcomeAfter', () => {
  const series = [0, 10, 20, 30, 44, 60].map((minute, i) => ({
    at: minute * MINUTE,
    day: 'd',
    wait: i === 5 ? null : i * 10,
  }));

  it.each([
    // [origin index, outcome]: the last observation at or before origin + 30 minutes, at most 15 minutes old
    [0, 30], // the observation at exactly 30 minutes
    [1, 30], // target 40: the one at 30 minutes, 10 minutes old
    [2, 40], // target 50: the one at 44
    [3, null], // target 60: the ride is down then
    [4, null], // target 74: the last before it (60) is down
    [5, undefined], // nothing later
  ])('from origin %i the outcome is %s', (index, expected) => {
    expect(outcomeAfter(series, index).wait).toBe(expected);
  });

  it('does not count an outcome older than 15 minutes', () => {
    const sparse = [
      { at: 0, day: 'd', wait: 10 },
      { at: 14 * MINUTE, day: 'd', wait: 20 },
    ];
    expect(outcomeAfter(sparse, 0).wait).toBeUndefined();
  });
});

describe('linearExtrapolation', () => {
  it.each([
    // [wait, minutes since the earlier sample, earlier wait, extrapolated]
    [40, 30, 30, 50],
    [40, 20, 30, 55], // +10 in 20 minutes is +15 in 30
    [10, 30, 40, 0], // never below 0
    [40, 30, null, 40], // closed then: persistence
    [40, undefined, undefined, 40], // no earlier sample: persistence
  ])('wait %i, %s minutes after a wait of %s, extrapolates to %i', (wait, minutesAgo, earlierWait, expected) => {
    const earlierAt = minutesAgo === undefined ? undefined : HORIZON_MS - minutesAgo * MINUTE;
    expect(linearExtrapolation(wait, HORIZON_MS, earlierAt, earlierWait)).toBe(expected);
  });
});

describe('replay on the real slices (TouringPlans.com, 17–24 Feb 2019)', () => {
  it.each(['AK85', 'AK86'] as const)('%s: learns on the first days, scores only the later ones', async (ride) => {
    const result = await replay(loadSlice(ride), { timeZone: EASTERN, learnShare: 0.5 });
    expect(result.learnDays).toEqual({ count: 4, first: '2019-02-17', last: '2019-02-20' });
    expect(result.testDays).toEqual({ count: 4, first: '2019-02-21', last: '2019-02-24' });
    expect(result.scored).toBeGreaterThan(300);
    for (const score of [result.persistence, result.linear, result.ours]) {
      expect(score.mae).toBeGreaterThan(0);
      expect(score.within5).toBeLessThanOrEqual(score.within10);
    }
    // Even after only four days of learning the forecast is not worse than "no change" by much,
    // and both beat the straight line by far (the full two-year figures are in the README).
    expect(result.ours.mae).toBeLessThan(result.persistence.mae * 1.02);
    expect(result.linear.mae).toBeGreaterThan(result.persistence.mae * 1.3);
    const { up, down, flat } = result.trend;
    expect(up.calls + down.calls + flat).toBe(result.scored);
    for (const call of [up, down, result.forecastDirection.up, result.forecastDirection.down]) {
      expect(call.hits).toBeLessThanOrEqual(call.moved);
      expect(call.moved).toBeLessThanOrEqual(call.calls);
    }
    expect(result.profileBytes).toBeGreaterThan(0);
  });

  it('with nothing to learn from first, forecasts exactly persistence on the first day', async () => {
    const firstDay = loadSlice('AK85').filter((sample) => sample.day === '2019-02-17');
    const result = await replay(firstDay, { timeZone: EASTERN, learnShare: 0 });
    expect(result.ours).toEqual(result.persistence);
  });
});
