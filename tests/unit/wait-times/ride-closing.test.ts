import { describe, expect, it } from 'vitest';
import { halfHoursBetween, rideOutlookOf } from '../../../src/wait-times/forecast/outlook.ts';
import { memoryHistory, recordSample } from '../../../src/wait-times/forecast/park-history.ts';
import { CLOSED_EARLY_LIMIT, closedEarlyShare, learnClosings } from '../../../src/wait-times/forecast/ride-closing.ts';
import { emptyProfile } from '../../../src/wait-times/forecast/wait-profile.ts';
import {
  CLOSING_STEPS,
  decodeWaitProfile,
  encodeWaitProfile,
  StoredWaitProfileSchema,
  type WaitProfile,
} from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { halfHour } from '../../support/wait-profile.ts';

const MINUTE = 60_000;
/** Unix ms of a UTC wall-clock time on 2026-07-04. */
const at = (clock: string) => {
  const [hours = 0, minutes = 0] = clock.split(':').map(Number);
  return Date.parse('2026-07-04T00:00:00Z') + (hours * 60 + minutes) * MINUTE;
};
const HOURS = { opensAt: at('09:00'), closesAt: at('21:00') };
const sample = (clock: string, waits: Record<string, number | null>) => ({ at: at(clock), waits });
/** Rides "early", "late" and "shut" known to the profile, nothing learned of their closings yet. */
const known: WaitProfile = {
  ...emptyProfile(),
  rides: Object.fromEntries(['early', 'late', 'shut'].map((id) => [id, { seen: 0, buckets: {} }])),
};

/** The profile after the day's samples: "early" open until 19:45, "late" until closing, "shut" never. */
function dayOf(hours: typeof HOURS | null, after = ['21:00']): WaitProfile {
  let profile = known;
  for (const clock of ['09:00', '19:45', '20:00', '20:55', ...after]) {
    const open = (until: string) => (at(clock) <= at(until) ? 30 : null);
    profile = learnClosings(profile, sample(clock, { early: open('19:45'), late: open('20:55'), shut: null }), hours);
  }
  return profile;
}

describe('learnClosings', () => {
  it('keeps when each ride was last seen open, and learns no closing without the hours', () => {
    const profile = dayOf(null);
    expect(profile.rides.early?.lastOpen).toBe(at('19:45'));
    expect(profile.rides.late?.lastOpen).toBe(at('20:55'));
    expect(profile.rides.shut?.lastOpen).toBeUndefined();
    expect(profile.rides.early?.closedEarly).toBeUndefined();
  });

  it('learns nothing of the closing before the park closes', () => {
    expect(dayOf(HOURS, []).rides.early?.closedEarly).toBeUndefined();
  });

  it('learns, at closing, how many whole half hours before it each ride open today closed', () => {
    const profile = dayOf(HOURS);
    // 19:45 is 75 minutes before 21:00: closed at least one and two half hours early, not three.
    expect(profile.rides.early?.closedEarly).toEqual([0.1, 0.1, 0, 0, 0, 0]);
    expect(profile.rides.late?.closedEarly).toEqual(Array(CLOSING_STEPS).fill(0));
    expect(profile.rides.shut?.closedEarly).toBeUndefined();
    expect(profile.closingLearned).toBe(HOURS.closesAt);
  });

  it('learns each closing once, however many samples follow it', () => {
    expect(dayOf(HOURS, ['21:00', '21:05', '21:30']).rides.early?.closedEarly).toEqual(
      dayOf(HOURS).rides.early?.closedEarly,
    );
  });

  it('weighs the days: a habit of closing early grows day by day', () => {
    let profile = known;
    const shares: number[] = [];
    for (let day = 0; day < 10; day++) {
      const hours = { opensAt: HOURS.opensAt + day * 86_400_000, closesAt: HOURS.closesAt + day * 86_400_000 };
      const shifted = (clock: string, wait: number | null) => ({
        at: at(clock) + day * 86_400_000,
        waits: { early: wait },
      });
      profile = learnClosings(profile, shifted('19:45', 30), hours);
      profile = learnClosings(profile, shifted('21:00', null), hours);
      shares.push(profile.rides.early?.closedEarly?.[0] ?? 0);
    }
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.at(-1)).toBeGreaterThan(0.6);
  });
});

describe('closedEarlyShare', () => {
  const profile: WaitProfile = {
    ...emptyProfile(),
    rides: { 1: { seen: 0, buckets: {}, closedEarly: [0.6, 0.5, 0.4, 0.3, 0.2, 0.1] } },
  };

  it.each([
    ['30 minutes before closing: closed at least a half hour early', '20:30', 0.6],
    ['an hour before', '20:00', 0.5],
    ['a quarter of an hour before, as the last half hour', '20:45', 0.6],
    ['three hours before', '18:00', 0.1],
    ['five hours before, as the earliest step kept', '16:00', 0.1],
  ])('%s', (_case, clock, share) => {
    expect(closedEarlyShare(profile, '1', at(clock), HOURS.closesAt)).toBe(share);
  });

  it('is 0 for a ride whose closings are not learned', () => {
    expect(closedEarlyShare(profile, '2', at('20:30'), HOURS.closesAt)).toBe(0);
    expect(closedEarlyShare(null, '1', at('20:30'), HOURS.closesAt)).toBe(0);
  });
});

describe('the outlook of a ride that often closes before the park', () => {
  // Usual waits falling towards the evening: the lowest are the last half hours.
  const buckets = Object.fromEntries(
    Array.from({ length: 48 }, (_, slot) => [slot, halfHour(Math.max(5, 100 - 2 * slot), { near: [0, 10] })]),
  );
  const closedEarly = [0.5, 0.3, CLOSED_EARLY_LIMIT, 0, 0, 0];
  const profile: WaitProfile = { ...emptyProfile(), rides: { 1: { seen: 0, buckets, closedEarly } } };
  const context = { profile, timeZone: 'UTC', at: at('17:10'), parkRatio: 1 };
  const times = halfHoursBetween(context.at, HOURS.closesAt, 'UTC');

  it('leaves out the half hours by which it has often closed, and never advises them', () => {
    const { outlook, bestTime } = rideOutlookOf({ ...context, hours: HOURS }, { id: '1', wait: 60 }, times);
    const shown = times.filter((_, index) => outlook[index] !== null);
    expect(shown).toEqual([at('17:30'), at('18:00'), at('18:30'), at('19:00'), at('19:30')]);
    expect(bestTime?.at).toBe(at('19:30'));
  });

  it('is as before without the hours', () => {
    const { outlook, bestTime } = rideOutlookOf({ ...context, hours: null }, { id: '1', wait: 60 }, times);
    expect(outlook.every((wait) => wait !== null)).toBe(true);
    expect(bestTime?.at).toBe(at('20:30'));
  });
});

describe('the closings in the stored record', () => {
  it('are learned by recordSample given the hours, and read back as written', async () => {
    const history = memoryHistory();
    for (const [clock, wait] of [
      ['19:00', 30],
      ['19:30', 20],
      ['20:00', null],
      ['21:00', null],
    ] as const) {
      await recordSample(history, sample(clock, { 1: wait }), 'UTC', { hours: HOURS });
    }
    const profile = await history.readProfile();
    // Last open at 19:30, 90 minutes before the closing: three half hours early.
    expect(profile?.rides['1']).toMatchObject({ lastOpen: at('19:30'), closedEarly: [0.1, 0.1, 0.1, 0, 0, 0] });
    expect(decodeWaitProfile(StoredWaitProfileSchema.parse(encodeWaitProfile(profile ?? known)))).toEqual(profile);
  });

  it.each([
    ['six shares', [0, 0.1, 0.2, 0.3, 0.4, 1], true],
    ['five shares', [0, 0, 0, 0, 0], false],
    ['a share above 1', [0, 0, 0, 0, 0, 1.5], false],
  ])('takes %s as early closings: %s', (_case, closedEarly, valid) => {
    const record = { version: 1, learnedThrough: 0, rides: { 1: { seen: 0, lastOpen: 0, closedEarly, buckets: {} } } };
    expect(StoredWaitProfileSchema.safeParse(record).success).toBe(valid);
  });
});
