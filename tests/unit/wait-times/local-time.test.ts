import { describe, expect, it } from 'vitest';
import { fromWallClock, minuteOfDay } from '../../../src/wait-times/local-time.ts';

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
