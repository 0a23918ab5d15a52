import { describe, expect, it } from 'vitest';
import {
  dayBoundsOf,
  fromWallClock,
  localDateOf,
  minuteOfDay,
  previousDate,
} from '../../../src/wait-times/local-time.ts';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const wall = (reading: string) => Date.parse(`${reading}Z`);

describe('minuteOfDay', () => {
  it.each([
    // [instant (UTC), time zone, local minute of day]
    ['2019-02-19T14:10:00Z', 'America/New_York', 9 * 60 + 10], // EST, UTC-5
    ['2018-07-01T13:00:00Z', 'America/New_York', 9 * 60], // EDT, UTC-4
    ['2024-05-23T18:40:04Z', 'Europe/Paris', 20 * 60 + 40], // CEST, UTC+2
    ['2024-01-01T00:10:00Z', 'America/Los_Angeles', 16 * 60 + 10], // the day before, locally
    ['2024-01-01T00:10:00Z', 'Asia/Kathmandu', 5 * 60 + 55], // a UTC+5:45 zone
    ['2018-11-04T05:30:00Z', 'America/New_York', 90], // 01:30 EDT, the first of two 01:30s
    ['2018-11-04T06:30:00Z', 'America/New_York', 90], // 01:30 EST, the second
    ['2019-02-19T04:59:59Z', 'America/New_York', 23 * 60 + 59],
  ])('at %s in %s is minute %i', (instant, timeZone, expected) => {
    expect(minuteOfDay(Date.parse(instant), timeZone)).toBe(expected);
  });
});

describe('fromWallClock', () => {
  it.each([
    // [local reading, time zone, instant (UTC)]
    ['2019-02-19T09:10:00', 'America/New_York', '2019-02-19T14:10:00.000Z'],
    ['2018-07-01T09:00:00', 'America/New_York', '2018-07-01T13:00:00.000Z'],
    ['2018-11-04T01:30:00', 'America/New_York', '2018-11-04T05:30:00.000Z'], // ambiguous: the first
    ['2018-03-11T02:30:00', 'America/New_York', '2018-03-11T07:30:00.000Z'], // skipped: 03:30 EDT
    ['2018-10-28T02:30:00', 'Europe/Paris', '2018-10-28T00:30:00.000Z'], // ambiguous: the first
    ['2018-03-25T02:30:00', 'Europe/Paris', '2018-03-25T01:30:00.000Z'], // skipped: 03:30 CEST
  ])('reads %s in %s as %s', (reading, timeZone, expected) => {
    expect(new Date(fromWallClock(wall(reading), timeZone)).toISOString()).toBe(expected);
  });
});

describe('localDateOf: the park-local calendar date of an instant', () => {
  it.each([
    // A west-coast park: its day runs 08:00 UTC to 08:00 UTC, across midnight UTC.
    ['2026-07-04T06:59:00Z', 'America/Los_Angeles', '2026-07-03'],
    ['2026-07-04T07:00:00Z', 'America/Los_Angeles', '2026-07-04'],
    ['2026-07-05T03:00:00Z', 'America/Los_Angeles', '2026-07-04'],
    // Florida in winter (UTC−5) and summer (UTC−4).
    ['2026-01-10T04:59:59Z', 'America/New_York', '2026-01-09'],
    ['2026-01-10T05:00:00Z', 'America/New_York', '2026-01-10'],
    ['2026-07-10T04:00:00Z', 'America/New_York', '2026-07-10'],
    // Europe: the local day starts before midnight UTC.
    ['2026-07-03T22:00:00Z', 'Europe/Paris', '2026-07-04'],
    ['2026-07-03T21:59:00Z', 'Europe/Paris', '2026-07-03'],
    // Asia: a whole day ahead of the Americas at the same instant.
    ['2026-07-03T15:00:00Z', 'Asia/Tokyo', '2026-07-04'],
  ])('%s in %s is %s', (instant, timeZone, date) => {
    expect(localDateOf(at(instant), timeZone)).toBe(date);
  });
});

describe('dayBoundsOf: local midnight to local midnight', () => {
  it.each([
    ['2026-07-04', 'America/Los_Angeles', '2026-07-04T07:00:00Z', 24],
    ['2026-07-04', 'Asia/Tokyo', '2026-07-03T15:00:00Z', 24],
    // Clocks go forward (23 hours) and back (25 hours).
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00Z', 23],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00Z', 25],
    ['2026-03-29', 'Europe/Paris', '2026-03-28T23:00:00Z', 23],
  ])('%s in %s starts at %s and lasts %i hours', (date, timeZone, start, hours) => {
    const { startsAt, endsAt } = dayBoundsOf(date, timeZone);
    expect(new Date(startsAt).toISOString()).toBe(new Date(start).toISOString());
    expect((endsAt - startsAt) / HOUR).toBe(hours);
    expect(localDateOf(startsAt, timeZone)).toBe(date);
    expect(localDateOf(endsAt - 1, timeZone)).toBe(date);
    expect(localDateOf(endsAt, timeZone)).not.toBe(date);
  });

  it('the date before a date, across months and years', () => {
    expect(previousDate('2026-03-01')).toBe('2026-02-28');
    expect(previousDate('2027-01-01')).toBe('2026-12-31');
  });
});
