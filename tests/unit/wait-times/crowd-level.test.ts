import { describe, expect, it } from 'vitest';
import {
  CROWD_BOUNDS,
  crowdLevelOf,
  crowdWordOf,
  MIN_CROWD_COMPARISONS,
  usualWaits,
} from '../../../src/wait-times/day/crowd-level.ts';
import { MIN_USUAL_OBSERVATIONS } from '../../../src/wait-times/forecast/wait-profile.ts';
import type { WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { halfHour } from '../../support/wait-profile.ts';

const EASTERN = 'America/New_York';
/** 10:00 Eastern (summer): half hour 20 of the local day. */
const TEN = Date.parse('2026-07-04T14:00:00Z');
const MINUTE = 60_000;

const bucket = (level: number, observations: number) => halfHour(level, { near: [0, observations] });

describe('usualWaits: a ride’s usual day from the forecaster’s profile', () => {
  const profile: WaitProfile = {
    version: 1,
    learnedThrough: 0,
    rides: {
      '7': {
        seen: 0,
        buckets: { '20': bucket(42.6, MIN_USUAL_OBSERVATIONS), '21': bucket(50, MIN_USUAL_OBSERVATIONS - 1) },
      },
    },
  };

  it.each([
    ['a learned half hour, rounded to a minute', '7', 20, 43],
    ['a half hour with too few observations', '7', 21, null],
    ['a half hour never seen', '7', 30, null],
    ['a ride the profile does not know', '8', 20, null],
  ])('%s', (_case, ride, index, expected) => {
    const usual = usualWaits(profile, ride);
    expect(usual).toHaveLength(48);
    expect(usual[index]).toBe(expected);
  });

  it('is all null without a profile', () => {
    expect(usualWaits(null, '7')).toEqual(Array(48).fill(null));
  });
});

describe('crowdWordOf', () => {
  it.each([
    [0.5, 'quieter'],
    [CROWD_BOUNDS.quieter - 0.01, 'quieter'],
    [CROWD_BOUNDS.quieter, 'usual'],
    [1, 'usual'],
    [CROWD_BOUNDS.busier, 'usual'],
    [CROWD_BOUNDS.busier + 0.01, 'busier'],
    [2, 'busier'],
  ] as const)('ratio %d reads %s', (ratio, word) => {
    expect(crowdWordOf(ratio)).toBe(word);
  });
});

/** `count` samples 5 minutes apart from 10:00, every ride at the same wait; usual 40 from 10:00 to 10:59. */
function day(rides: number, count: number, wait: number | null) {
  const times = Array.from({ length: count }, (_, i) => TEN + i * 5 * MINUTE);
  const usual = Array.from({ length: 48 }, (_, i) => (i === 20 || i === 21 ? 40 : null));
  return { times, rides: Array.from({ length: rides }, () => ({ waits: times.map(() => wait), usual })) };
}

describe('crowdLevelOf: today against the usual at the same hours', () => {
  it.each([
    ['waits as usual', 4, 10, 40, { level: 'usual', ratio: 1 }],
    ['waits a quarter longer', 4, 10, 50, { level: 'busier', ratio: 1.25 }],
    ['waits a quarter shorter', 4, 10, 30, { level: 'quieter', ratio: 0.75 }],
    ['too few readings to say', MIN_CROWD_COMPARISONS - 1, 1, 50, { level: null, ratio: null }],
    ['every ride closed', 4, 10, null, { level: null, ratio: null }],
  ] as const)('%s', (_case, rides, count, wait, expected) => {
    const { times, rides: list } = day(rides, count, wait);
    const crowd = crowdLevelOf(times, list, EASTERN);
    expect({ level: crowd.level, ratio: crowd.ratio }).toEqual(expected);
    const compared = wait === null ? 0 : rides * count;
    expect(crowd.comparisons).toBe(compared);
    expect(crowd.rides).toBe(compared > 0 ? rides : 0);
    expect(crowd.since).toBe(compared > 0 ? TEN : null);
  });

  it('compares each reading with the usual of its own local half hour, and skips hours not learned', () => {
    const times = [TEN - 30 * MINUTE, TEN, TEN + 30 * MINUTE]; // 09:30, 10:00, 10:30
    const usual = Array.from({ length: 48 }, (_, i) => (i === 20 ? 20 : i === 21 ? 80 : null));
    const rides = Array.from({ length: 10 }, () => ({ waits: [500, 30, 80], usual }));
    // 09:30 has no usual: (30 + 80) / (20 + 80) = 1.1 over 20 readings.
    expect(crowdLevelOf(times, rides, EASTERN)).toEqual({
      level: 'usual',
      ratio: 1.1,
      comparisons: 20,
      rides: 10,
      since: TEN,
    });
  });
});
