import { describe, expect, it } from 'vitest';
import {
  bandOf,
  boundProfile,
  bucketOf,
  emptyProfile,
  expectedChange,
  FORGET_RIDE_AFTER_MS,
  MIN_OBSERVATIONS,
  updateProfile,
} from '../../../src/wait-times/forecast/wait-profile.ts';
import {
  BUCKETS_PER_DAY,
  CLOSING_STEPS,
  decodeWaitProfile,
  encodeWaitProfile,
  MAX_OBSERVATIONS,
  MAX_PROFILE_RIDES,
  StoredWaitProfileSchema,
  type WaitProfile,
} from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { MAX_WAIT_MINUTES } from '../../../src/wait-times/wait-times-schemas.ts';
import { halfHour } from '../../support/wait-profile.ts';

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;
const NINE_AM = 9 * 60;
const sample = (at: number, waits: Record<string, number | null>) => ({ at, waits });

/** Feeds `changes` into ride "1" at the local minute `minute` (09:00) from a wait of `from`. */
function teach(profile: WaitProfile, from: number, changes: readonly number[], minute = NINE_AM): WaitProfile {
  let next = profile;
  for (const [i, change] of changes.entries()) {
    const at = NOW + i * 5 * MINUTE;
    next = updateProfile(next, sample(at + 30 * MINUTE, { '1': from + change }), sample(at, { '1': from }), minute);
  }
  return next;
}

describe('bucketOf', () => {
  it.each([
    [0, 0],
    [29, 0],
    [30, 1],
    [NINE_AM, 18],
    [1439, BUCKETS_PER_DAY - 1],
  ])('minute %i falls in slot %i', (minute, slot) => {
    expect(bucketOf(minute)).toBe(slot);
  });
});

describe('bandOf', () => {
  it.each([
    // [wait, slot level, band]: near means within ±20 % and ±5 minutes of the level
    [60, 60, 'near'],
    [77, 60, 'near'], // 72 + 5 = 77 is still near
    [78, 60, 'high'],
    [43, 60, 'near'], // 48 - 5 = 43 is still near
    [42, 60, 'low'],
    [5, 0, 'near'], // a walk-on ride: 0 + 5
    [6, 0, 'high'],
    [3, 10, 'near'],
    [2, 10, 'low'],
  ] as const)('a wait of %i against a level of %i is %s', (wait, level, band) => {
    expect(bandOf(wait, level)).toBe(band);
  });
});

describe('updateProfile', () => {
  it('learns only from rides open in both samples, in the slot of the earlier one', () => {
    const earlier = sample(NOW, { '1': 30, '2': null, '3': 20, '4': 10 });
    const now = sample(NOW + 30 * MINUTE, { '1': 45, '2': 30, '3': null });
    const profile = updateProfile(emptyProfile(), now, earlier, NINE_AM);
    expect(Object.keys(profile.rides)).toEqual(['1']);
    expect(Object.keys(profile.rides['1']?.buckets ?? {})).toEqual(['18']);
    expect(profile.rides['1']?.seen).toBe(now.at);
  });

  it('learns the usual wait and open share, not the change, of a ride that has closed since', () => {
    const [closed, open] = [sample(NOW + 30 * MINUTE, { '1': null }), sample(NOW, { '1': 10 })];
    const known = teach(emptyProfile(), 60, [0, 0]);
    const closing = updateProfile(known, closed, open, NINE_AM);
    const [after, before] = [closing, known].map((profile) => profile.rides['1']?.buckets['18']);
    expect(after?.level).toBeLessThan(before?.level ?? 0);
    expect(after?.bands).toEqual(before?.bands);
    expect(after?.openShare).toBe(1);
    expect(updateProfile(emptyProfile(), closed, open, NINE_AM).rides).toEqual({});
  });

  it.each([
    [MAX_WAIT_MINUTES + 1, 30],
    [30, 999],
  ])('does not learn from an implausible wait (%i then, %i now)', (then, now) => {
    const profile = updateProfile(
      emptyProfile(),
      sample(NOW + 30 * MINUTE, { '1': now }),
      sample(NOW, { '1': then }),
      NINE_AM,
    );
    expect(profile.rides).toEqual({});
  });

  it('keeps what a ride learned of its closings (ride-closing.ts) while it learns its half hours', () => {
    const learned = teach(emptyProfile(), 30, [5]);
    const ride = learned.rides['1'];
    const closings = { lastOpen: NOW, closedEarly: [0.5, 0.2, 0, 0, 0, 0] };
    const withClosings = {
      ...learned,
      rides: { 1: { seen: ride?.seen ?? 0, buckets: ride?.buckets ?? {}, ...closings } },
    };
    expect(teach(withClosings, 30, [5]).rides['1']).toMatchObject(closings);
  });

  it('leaves the profile it was given untouched', () => {
    const before = teach(emptyProfile(), 30, [10, 10]);
    const copy = structuredClone(before);
    teach(before, 30, [20, 20, 20]);
    expect(before).toEqual(copy);
  });

  it('follows the median change, not the mean, so rare big jumps do not drag it', () => {
    // Three quiet half-hours for every jump of 40: median 0, mean 10.
    const changes = Array.from({ length: 400 }, (_, i) => (i % 4 === 3 ? 40 : 0));
    const profile = teach(emptyProfile(), 60, changes);
    expect(Math.abs(expectedChange(profile, '1', 60, NINE_AM))).toBeLessThan(2);
  });

  it.each([
    // [observations of a steady +15, lowest and highest expected change]: cautious early, exact later
    [MIN_OBSERVATIONS, 3, 8],
    [20, 6, 12],
    [40, 14.5, 15.5],
    [400, 14.5, 15.5],
  ])('after %i observations of a steady climb of 15 expects between %d and %d', (count, low, high) => {
    const change = expectedChange(teach(emptyProfile(), 30, Array(count).fill(15)), '1', 30, NINE_AM);
    expect(change).toBeGreaterThanOrEqual(low);
    expect(change).toBeLessThanOrEqual(high);
  });

  it('caps observation counts', () => {
    const profile = teach(
      emptyProfile(),
      30,
      Array.from({ length: MAX_OBSERVATIONS + 20 }, () => 0),
    );
    expect(profile.rides['1']?.buckets['18']?.bands.near.count).toBe(MAX_OBSERVATIONS);
  });
});

describe('expectedChange', () => {
  it.each([
    ['no profile at all', null, 0],
    ['fewer observations than needed', teach(emptyProfile(), 30, Array(MIN_OBSERVATIONS - 1).fill(20)), 0],
    ['enough observations', teach(emptyProfile(), 30, Array(MIN_OBSERVATIONS).fill(20)), 'learned'],
  ] as const)('with %s', (_case, profile, expected) => {
    const change = expectedChange(profile, '1', 30, NINE_AM);
    if (expected === 'learned') expect(change).toBeGreaterThan(5);
    else expect(change).toBe(expected);
  });

  it('knows nothing about another ride, another slot or another wait band', () => {
    const profile = teach(emptyProfile(), 30, Array(40).fill(20));
    expect(expectedChange(profile, '2', 30, NINE_AM)).toBe(0);
    expect(expectedChange(profile, '1', 30, NINE_AM + 60)).toBe(0);
    expect(expectedChange(profile, '1', 120, NINE_AM)).toBe(0);
  });

  it('moves between two half hours from the middle of one to the middle of the next', () => {
    const profile = teach(teach(emptyProfile(), 30, Array(40).fill(20)), 30, Array(40).fill(-20), NINE_AM + 30);
    const [rise, fall] = [
      expectedChange(profile, '1', 30, NINE_AM + 15),
      expectedChange(profile, '1', 30, NINE_AM + 45),
    ];
    expect(rise).toBeGreaterThan(5);
    expect(fall).toBeLessThan(-5);
    expect(expectedChange(profile, '1', 30, NINE_AM + 30)).toBeCloseTo((rise + fall) / 2);
    expect(expectedChange(profile, '1', 30, NINE_AM + 20)).toBeCloseTo((5 * rise + fall) / 6);
    expect(expectedChange(profile, '1', 30, NINE_AM)).toBe(rise); // 08:30 knows nothing: 09:00 alone
  });

  it('grows with the distance of the wait from the usual one, to three band widths', () => {
    // Usual 30 (a band is 30 × 20 % + 5 = 11 minutes wide): near +0, below +20, above −20.
    const bucket = halfHour(30, { low: [20, 50], near: [0, 50], high: [-20, 50] });
    const profile: WaitProfile = { ...emptyProfile(), rides: { 1: { seen: 0, buckets: { 18: bucket } } } };
    const at = (wait: number) => expectedChange(profile, '1', wait, NINE_AM + 15);
    expect([at(30), at(41), at(52), at(63), at(200)]).toEqual([0, -10, -20, -30, -30]);
    expect([at(19), at(8)]).toEqual([10, 20]);
  });
});

describe('boundProfile', () => {
  const ride = (seen: number) => ({ seen, buckets: {} });

  it('forgets rides not seen for two months', () => {
    const profile = { ...emptyProfile(), rides: { old: ride(NOW - FORGET_RIDE_AFTER_MS - 1), recent: ride(NOW - 1) } };
    expect(Object.keys(boundProfile(profile, NOW).rides)).toEqual(['recent']);
  });

  it(`keeps at most ${MAX_PROFILE_RIDES} rides, the most recently seen`, () => {
    const rides = Object.fromEntries(Array.from({ length: MAX_PROFILE_RIDES + 5 }, (_, i) => [`r${i}`, ride(NOW - i)]));
    const bounded = boundProfile({ ...emptyProfile(), rides }, NOW);
    expect(Object.keys(bounded.rides)).toHaveLength(MAX_PROFILE_RIDES);
    expect(bounded.rides[`r${MAX_PROFILE_RIDES}`]).toBeUndefined();
    expect(StoredWaitProfileSchema.safeParse(encodeWaitProfile(bounded)).success).toBe(true);
  });

  it('returns the same record when nothing needs to go', () => {
    const profile = { ...emptyProfile(), rides: { a: ride(NOW) } };
    expect(boundProfile(profile, NOW)).toBe(profile);
  });
});

describe('the stored record', () => {
  it('stays under 300 KB even at its bounds (100 rides, 48 slots each, closings kept, widest numbers)', () => {
    const bucket = [999.9, 999.9, -999.99, 100, -999.99, 100, -999.99, 100, 0.999] as const;
    const buckets = Object.fromEntries(Array.from({ length: BUCKETS_PER_DAY }, (_, i) => [String(i), [...bucket]]));
    const closedEarly = Array(CLOSING_STEPS).fill(0.999);
    const ride = { seen: NOW, lastOpen: NOW, closedEarly, buckets };
    const rides = Object.fromEntries(Array.from({ length: MAX_PROFILE_RIDES }, (_, i) => [String(100_000 + i), ride]));
    const profile = StoredWaitProfileSchema.parse({ version: 1, learnedThrough: NOW, closingLearned: NOW, rides });
    expect(Buffer.byteLength(JSON.stringify(profile))).toBeLessThan(300 * 1024);
  });

  it.each([
    ['an unknown version', { version: 2, learnedThrough: 0, rides: {} }],
    [
      'a slot index past the day',
      { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, buckets: { 48: [0, 0, 0, 0, 0, 0, 0, 0] } } } },
    ],
    ['a short slot', { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, buckets: { 3: [0, 0, 0] } } } }],
    [
      'a count past the cap',
      { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, buckets: { 3: [0, 0, 0, 101, 0, 0, 0, 0] } } } },
    ],
  ])('is refused with %s (read back as no profile)', (_case, record) => {
    expect(StoredWaitProfileSchema.safeParse(record).success).toBe(false);
  });

  it.each<[string, unknown, boolean]>([
    ['a bucket at its lower bounds', [0, 0, -1000, 0, -1000, 0, -1000, 0], true],
    ['a bucket at its upper bounds', [1000, 1000, 1000, 100, 1000, 100, 1000, 100], true],
    ['a bucket with fractions where they belong', [35.5, 6.25, -2.5, 40, 0.1, 100, 5, 12], true],
    ['a negative level', [-0.1, 0, 0, 0, 0, 0, 0, 0], false],
    ['a shift below -1000', [0, 0, 0, 0, -1000.5, 0, 0, 0], false],
    ['a fractional count', [0, 0, 0, 2.5, 0, 0, 0, 0], false],
    ['a number as text', [0, '1', 0, 0, 0, 0, 0, 0], false],
    ['nine members, the last an open share', [0, 0, 0, 0, 0, 0, 0, 0, 0.5], true],
    ['an open share above 1', [0, 0, 0, 0, 0, 0, 0, 0, 1.5], false],
    ['ten members', [0, 0, 0, 0, 0, 0, 0, 0, 1, 0], false],
    ['null', null, false],
  ])('takes %s as a bucket: %s', (_case, bucket, valid) => {
    const record = { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, buckets: { 17: bucket } } } };
    expect(StoredWaitProfileSchema.safeParse(record).success).toBe(valid);
  });

  it.each([
    ['0', true],
    ['47', true],
    ['48', false],
    ['07', false],
    ['-1', false],
    ['x', false],
  ])('takes %s as a half-hour index: %s', (key, valid) => {
    const record = {
      version: 1,
      learnedThrough: 0,
      rides: { 1: { seen: 0, buckets: { [key]: [0, 0, 0, 0, 0, 0, 0, 0] } } },
    };
    expect(StoredWaitProfileSchema.safeParse(record).success).toBe(valid);
  });

  it('takes rides whose buckets are not an object of buckets as damaged', () => {
    for (const buckets of [null, [], 'buckets', [[0, 0, 0, 0, 0, 0, 0, 0]]]) {
      const record = { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, buckets } } };
      expect(StoredWaitProfileSchema.safeParse(record).success, JSON.stringify(buckets)).toBe(false);
    }
  });
});

describe('decoding the stored record', () => {
  const stored = (bucket: unknown[]) =>
    StoredWaitProfileSchema.parse({
      version: 1,
      learnedThrough: NOW,
      rides: { 7: { seen: NOW, buckets: { 20: bucket } } },
    });

  it('reads each member of the stored tuple into its named field', () => {
    const decoded = decodeWaitProfile(stored([35.5, 6.2, 4, 12, -1.5, 40, -8, 20, 0.75]));
    expect(decoded.rides['7']?.buckets['20']).toEqual(
      halfHour(35.5, { low: [4, 12], near: [-1.5, 40], high: [-8, 20] }, { spread: 6.2, openShare: 0.75 }),
    );
  });

  it('reads a half hour stored before the open share was kept as open', () => {
    expect(decodeWaitProfile(stored([30, 5, 0, 0, 0, 10, 0, 0])).rides['7']?.buckets['20']?.openShare).toBe(1);
  });

  it('writes back exactly the tuple it read', () => {
    const record = stored([35.5, 6.2, 4, 12, -1.5, 40, -8, 20, 0.75]);
    expect(encodeWaitProfile(decodeWaitProfile(record))).toEqual(record);
  });

  it('stores what it learned in the stored format', () => {
    const learned = teach(emptyProfile(), 30, Array(12).fill(5));
    const record = StoredWaitProfileSchema.parse(JSON.parse(JSON.stringify(encodeWaitProfile(learned))));
    expect(decodeWaitProfile(record)).toEqual(learned);
  });
});
