import { describe, expect, it } from 'vitest';
import { forecastOf, toStep } from '../../src/lib/forecast.ts';
import { trendOf } from '../../src/lib/trend.ts';

describe('trendOf', () => {
  it.each([
    // [wait now, open now, wait earlier (null closed, undefined no sample), expected]
    [30, true, 25, 'up'], // rose by exactly 5
    [30, true, 26, 'flat'], // rose by 4
    [20, true, 25, 'down'], // fell by exactly 5
    [21, true, 25, 'flat'], // fell by 4
    [60, true, 10, 'up'],
    [0, true, 45, 'down'],
    [30, true, undefined, 'flat'], // no earlier sample
    [30, true, null, 'flat'], // closed then
    [0, false, 30, 'flat'], // closed now
  ] as const)('wait %i (open: %s) against %s earlier is %s', (wait, open, earlier, expected) => {
    expect(trendOf({ wait, open }, earlier)).toBe(expected);
  });
});

describe('forecastOf', () => {
  it.each([
    [0, true, 0],
    [13, true, 15],
    [12, true, 10],
    [45, true, 45],
    [45, false, null],
  ] as const)('wait %i (open: %s) forecasts %s', (wait, open, expected) => {
    expect(forecastOf({ wait, open })).toBe(expected);
  });

  it.each([
    [-3, 0],
    [2.4, 0],
    [2.5, 5],
    [117, 115],
  ])('toStep(%d) is %d', (minutes, expected) => {
    expect(toStep(minutes)).toBe(expected);
  });
});
