import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { forecastOf, trendAndForecastOf, trendOf } from '../../../src/wait-times/forecast/forecast.ts';
import { toStep } from '../../../src/wait-times/forecast/outlook.ts';
import { memoryHistory, recordSample } from '../../../src/wait-times/forecast/park-history.ts';
import {
  BUCKETS_PER_DAY,
  decodeWaitProfile,
  StoredWaitProfileSchema,
  type WaitProfile,
} from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { MAX_WAIT_MINUTES } from '../../../src/wait-times/wait-times-schemas.ts';
import { EASTERN, eastern, loadSlice } from '../../support/touringplans.ts';

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

describe('toStep', () => {
  it.each([
    [-3, 0],
    [2.4, 0],
    [2.5, 5],
    [117, 115],
    [MAX_WAIT_MINUTES + 40, MAX_WAIT_MINUTES],
  ])('toStep(%d) is %d', (minutes, expected) => {
    expect(toStep(minutes)).toBe(expected);
  });
});

describe('forecastOf without a profile (cold start)', () => {
  it.each([
    [0, true, 0],
    [13, true, 15],
    [12, true, 10],
    [45, true, 45],
    [999, true, MAX_WAIT_MINUTES], // an upstream glitch is capped
    [45, false, null],
  ] as const)('wait %i (open: %s) forecasts %s: the wait as it is', (wait, open, expected) => {
    const context = { profile: null, timeZone: EASTERN, at: eastern('2019-02-19 10:00') };
    expect(forecastOf(context, { id: 1, wait, open })).toBe(expected);
  });
});

describe('forecastOf with any profile', () => {
  const band = fc.tuple(fc.double({ min: -1000, max: 1000, noNaN: true }), fc.integer({ min: 0, max: 100 }));
  const bucket = fc
    .tuple(
      fc.double({ min: 0, max: 1000, noNaN: true }),
      fc.double({ min: 0, max: 1000, noNaN: true }),
      band,
      band,
      band,
    )
    .map(([level, spread, low, near, high]) => [level, spread, ...low, ...near, ...high]);
  const profile = fc
    .dictionary(fc.integer({ min: 0, max: BUCKETS_PER_DAY - 1 }).map(String), bucket)
    .map((buckets) =>
      decodeWaitProfile(
        StoredWaitProfileSchema.parse({ version: 1, learnedThrough: 0, rides: { 7: { seen: 0, buckets } } }),
      ),
    );

  it('is a multiple of 5 from 0 to the cap when the ride is open, and null when it is closed', () => {
    fc.assert(
      fc.property(
        profile,
        fc.integer({ min: 0, max: 2000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 1439 }),
        (p, wait, open, minute) => {
          const forecast = forecastOf({ profile: p, timeZone: 'UTC', at: minute * 60_000 }, { id: 7, wait, open });
          if (!open) return forecast === null;
          return forecast !== null && forecast % 5 === 0 && forecast >= 0 && forecast <= MAX_WAIT_MINUTES;
        },
      ),
    );
  });
});

describe('on a week of real posted waits (TouringPlans.com, 17–24 Feb 2019)', () => {
  const learned: Record<'AK85' | 'AK86', WaitProfile | null> = { AK85: null, AK86: null };

  beforeAll(async () => {
    for (const ride of ['AK85', 'AK86'] as const) {
      const history = memoryHistory();
      for (const posted of loadSlice(ride)) {
        learned[ride] = (await recordSample(history, { at: posted.at, waits: { 1: posted.wait } }, EASTERN)).profile;
      }
    }
  });

  it('forecasts persistence all through the first day, before anything is learned', async () => {
    const history = memoryHistory();
    const firstDay = loadSlice('AK86').filter((posted) => posted.day === '2019-02-17');
    const forecasts = [];
    for (const posted of firstDay) {
      const { earlier, profile } = await recordSample(history, { at: posted.at, waits: { 1: posted.wait } }, EASTERN);
      const ride = { id: 1, wait: posted.wait ?? 0, open: posted.wait !== null };
      const context = { profile, timeZone: EASTERN, at: posted.at, earlier };
      forecasts.push([trendAndForecastOf(context, ride).forecast, posted.wait]);
    }
    expect(forecasts.length).toBeGreaterThan(100);
    for (const [forecast, wait] of forecasts)
      expect(forecast).toBe(wait === null || wait === undefined ? null : toStep(wait));
  });

  it.each([
    // [ride, moment (Eastern), wait then, forecast: closer to the wait 30 minutes on than persistence, or the same, or none]
    ['AK86', '2019-02-19 08:30', 60, 'closer', 'the park just opened: the morning rush is learned (150 at 09:00)'],
    ['AK85', '2019-02-21 08:38', 5, 'closer', 'the park just opened: a short wait at opening climbs (25 at 09:10)'],
    ['AK85', '2019-02-24 18:45', 80, 'closer', 'evening: waits fall towards closing'],
    ['AK86', '2019-02-19 13:10', 240, 'the same', 'midday: no change is the best guess'],
    [
      'AK86',
      '2019-02-19 15:10',
      60,
      'the same',
      'just back from an hour down, too little learned for a low wait at 15:00: persistence',
    ],
    ['AK86', '2019-02-19 14:10', null, null, 'down (-999): no forecast'],
  ] as const)('%s at %s with a wait of %s forecasts %s (%s)', (ride, moment, wait, expected, _why) => {
    const at = eastern(moment);
    expect(loadSlice(ride).find((posted) => posted.at === at)?.wait).toBe(wait);
    const context = { profile: learned[ride], timeZone: EASTERN, at };
    const forecast = forecastOf(context, { id: 1, wait: wait ?? 0, open: wait !== null });
    const happened = loadSlice(ride).findLast((posted) => posted.at <= at + 30 * 60_000)?.wait ?? 0;
    if (expected === 'closer')
      expect(Math.abs((forecast ?? 0) - happened)).toBeLessThan(Math.abs((wait ?? 0) - happened));
    else expect(forecast).toBe(expected && wait);
  });
});
