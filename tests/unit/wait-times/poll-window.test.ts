import { describe, expect, it } from 'vitest';
import { emptyProfile, updateProfile } from '../../../src/wait-times/forecast/wait-profile.ts';
import type { WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { fromWallClock, minuteOfDay } from '../../../src/wait-times/local-time.ts';
import { shouldPoll, type UsualDay, usualDayOf } from '../../../src/wait-times/recorder/poll-window.ts';

const PARIS = 'Europe/Paris';
const MINUTE = 60_000;
/** A wall-clock time in Paris on 2026-07-04 as Unix ms. */
const paris = (time: string) => fromWallClock(Date.parse(`2026-07-04T${time}:00Z`), PARIS);
const HOURS = { opensAt: paris('09:00'), closesAt: paris('18:00') };
const USUAL: UsualDay = { opensAtMinute: 10 * 60, closesAtMinute: 22 * 60 };

describe('shouldPoll', () => {
  it.each([
    // time in Paris, today's hours known?, learned usual day?, poll?
    { time: '08:29', hours: true, usual: false, poll: false },
    { time: '08:30', hours: true, usual: false, poll: true },
    { time: '12:00', hours: true, usual: false, poll: true },
    { time: '18:30', hours: true, usual: false, poll: true },
    { time: '18:31', hours: true, usual: false, poll: false },
    { time: '03:00', hours: true, usual: false, poll: false },
    // known hours win over the usual day
    { time: '21:00', hours: true, usual: true, poll: false },
    // unknown hours: the usual day with the same margins
    { time: '09:29', hours: false, usual: true, poll: false },
    { time: '09:30', hours: false, usual: true, poll: true },
    { time: '22:30', hours: false, usual: true, poll: true },
    { time: '22:31', hours: false, usual: true, poll: false },
    { time: '03:00', hours: false, usual: true, poll: false },
    // nothing known: in doubt, poll
    { time: '03:00', hours: false, usual: false, poll: true },
  ])('at $time (hours known $hours, usual day known $usual): $poll', ({ time, hours, usual, poll }) => {
    expect(shouldPoll(paris(time), hours ? HOURS : null, usual ? USUAL : null, PARIS)).toBe(poll);
  });

  it('reaches across midnight with the margin for a usual day that starts at 00:00', () => {
    const usual = { opensAtMinute: 0, closesAtMinute: 120 };
    expect(shouldPoll(paris('23:45'), null, usual, PARIS)).toBe(true);
    expect(shouldPoll(paris('23:00'), null, usual, PARIS)).toBe(false);
  });
});

describe('usualDayOf', () => {
  /** A profile that saw one ride open from `from` to `to` (Paris wall clock) for `days` days. */
  function learned(from: string, to: string, days: number): WaitProfile {
    let profile = emptyProfile();
    for (let day = 0; day < days; day++) {
      for (let at = paris(from) + day * 1440 * MINUTE; at + 30 * MINUTE <= paris(to) + day * 1440 * MINUTE; ) {
        const earlier = { at, waits: { '1': 20 } };
        const now = { at: at + 30 * MINUTE, waits: { '1': 25 } };
        profile = updateProfile(profile, now, earlier, minuteOfDay(at, PARIS));
        at += 5 * MINUTE;
      }
    }
    return profile;
  }

  it('is null until a half hour is usual (6 observations)', () => {
    expect(usualDayOf(null)).toBeNull();
    expect(usualDayOf(emptyProfile())).toBeNull();
    expect(usualDayOf(learned('10:00', '10:50', 1))).toBeNull(); // 5 observations of 10:00-10:30
  });

  it('spans from the first usual half hour to the end of the last (11:30 seen twice is not usual)', () => {
    expect(usualDayOf(learned('10:00', '12:00', 2))).toEqual({ opensAtMinute: 600, closesAtMinute: 690 });
  });
});
