import { describe, expect, it } from 'vitest';
import { StoredServedSchema } from '../../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { servedPollOf } from '../../../../src/wait-times/accuracy/served-forecasts.ts';
import type { ProfileBucket, WaitProfile } from '../../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { waitTimesBody } from '../../../../src/wait-times/live/live-waits.ts';

/** 10:00 UTC: half hour 20 of the day; its targets at 30, 60 and 120 minutes are half hours 21, 22 and 24. */
const AT = Date.parse('2026-07-04T10:00:00Z');
/** A half hour learned over a day or more, its level with the decimal every learned level may have. */
const learned = (level: number): ProfileBucket => ({
  level,
  spread: 3.4,
  bands: { low: { shift: 0, count: 0 }, near: { shift: 2.5, count: 12 }, high: { shift: 0, count: 0 } },
  openShare: 1,
});
const profile: WaitProfile = {
  version: 1,
  learnedThrough: AT - 60_000,
  rides: {
    7: { seen: AT - 60_000, buckets: { 20: learned(40), 21: learned(42.3), 22: learned(44.6), 24: learned(47.5) } },
  },
};

describe('what one poll served', () => {
  it('keeps the usual waits in whole minutes, so that the archive accepts a learned level', () => {
    const snapshot = { fetchedAt: AT, rides: [{ id: 7, name: 'Coaster', wait: 40, open: true }] };
    const answer = waitTimesBody(snapshot, null, { profile, timeZone: 'UTC' });
    const served = servedPollOf(snapshot, answer, { profile, hours: null, timeZone: 'UTC' }).rides.get('7')?.served;
    expect(served?.slice(4, 7)).toEqual([42, 45, 48]);
    expect(StoredServedSchema.safeParse(served).success).toBe(true);
  });
});
