import { describe, expect, it } from 'vitest';
import { parkOutagesOf, reopenedWithin } from '../../../scripts/backtest/outages.ts';
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
