import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../scripts/fake-http-server.mts';
import {
  MAGIC_KINGDOM_CAPTURE,
  redatedSchedule,
  row,
  SYNTHETIC_DAYS,
  type UpstreamRow,
} from '../../../scripts/fake-park-hours.mts';
import { UpstreamError } from '../../../src/platform/errors.ts';
import { currentDayOf, isOpenAt, publicDayOf } from '../../../src/wait-times/hours/park-hours.ts';
import { scheduleRowsOf } from '../../../src/wait-times/hours/themeparks-wiki.ts';
import { PARKS } from '../../../src/wait-times/parks.ts';

const NEW_YORK = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const rowsOf = (schedule: unknown[]) => scheduleRowsOf({ schedule }, 'test');
const recorded = (file: string) => JSON.parse(readFixture(`themeparks-wiki/${file}`)) as { schedule: unknown[] };

describe('the recorded ThemeParks.wiki schedules', () => {
  const capture = recorded(MAGIC_KINGDOM_CAPTURE.replace('themeparks-wiki/', ''));
  const earlier = recorded('themeparks-wiki_schedule_magic-kingdom_2026-04-14_themeparks-py.json');

  it('keeps every row of both Magic Kingdom captures', () => {
    expect(rowsOf(capture.schedule)).toHaveLength(capture.schedule.length);
    expect(rowsOf(earlier.schedule)).toHaveLength(earlier.schedule.length);
  });

  it("reads 15 April 2026 as 09:00-22:00 with Early Entry and Extended Evening apart, the evening's closing after midnight", () => {
    expect(publicDayOf(rowsOf(capture.schedule), '2026-04-15', NEW_YORK)).toEqual({
      opensAt: at('2026-04-15T09:00:00-04:00'),
      closesAt: at('2026-04-15T22:00:00-04:00'),
      extras: [
        {
          type: 'TICKETED_EVENT',
          description: 'Early Entry',
          opensAt: at('2026-04-15T08:30:00-04:00'),
          closesAt: at('2026-04-15T09:00:00-04:00'),
        },
        {
          type: 'TICKETED_EVENT',
          description: 'Extended Evening',
          opensAt: at('2026-04-15T22:00:00-04:00'),
          closesAt: at('2026-04-16T00:00:00-04:00'),
        },
      ],
    });
  });

  it('gives the same public day from both captures on every date they share', () => {
    const [a, b] = [rowsOf(capture.schedule), rowsOf(earlier.schedule)];
    const dates = new Set(a.map((entry) => entry.date).filter((date) => b.some((other) => other.date === date)));
    expect(dates.size).toBe(30);
    for (const date of dates) expect(publicDayOf(a, date, NEW_YORK)).toEqual(publicDayOf(b, date, NEW_YORK));
  });

  it("names every park by an id that is a park in ThemeParks.wiki's recorded /destinations", () => {
    const { destinations } = JSON.parse(
      readFixture('themeparks-wiki/themeparks-wiki_destinations_2026-04-15_themeparks-js.json'),
    ) as { destinations: { parks: { id: string }[] }[] };
    const ids = new Set(destinations.flatMap((destination) => destination.parks.map((park) => park.id)));
    for (const park of PARKS) expect(ids, park.slug).toContain(park.themeParksWikiId);
    expect(new Set(PARKS.map((park) => park.themeParksWikiId)).size).toBe(PARKS.length);
  });

  it('re-dates the capture for the demo by whole days, keeping wall-clock times across a change of offset', () => {
    const moved = rowsOf(redatedSchedule('2026-11-27').schedule);
    expect(publicDayOf(moved, '2026-11-27', NEW_YORK)).toMatchObject({
      opensAt: at('2026-11-27T09:00:00-05:00'),
      closesAt: at('2026-11-27T22:00:00-05:00'),
    });
  });
});

// SYNTHETIC days (scripts/fake-park-hours.mts), on 2026-10-30 in New York unless the case says otherwise.
const DATE = '2026-10-30';
const NEXT = '2026-10-31';
const day = (name: keyof typeof SYNTHETIC_DAYS, date = DATE) => SYNTHETIC_DAYS[name](date, NEW_YORK);
const local = (date: string, time: string) => at(`${date}T${time}:00-04:00`);

describe('the public day of a date (synthetic schedules)', () => {
  it.each([
    ['a normal day', day('normal'), ['09:00', '21:00'], []],
    ['a short 09:00-17:30 day', day('short'), ['09:00', '17:30'], []],
    [
      'an Extended Evening past midnight, kept apart as an extra',
      day('extendedEvening'),
      ['08:00', '23:00'],
      [
        ['TICKETED_EVENT', 'Early Entry', local(DATE, '07:30'), local(DATE, '08:00')],
        ['TICKETED_EVENT', 'Extended Evening', local(DATE, '23:00'), local(NEXT, '01:00')],
      ],
    ],
    [
      'a Halloween Horror Nights day: OPERATING 09:00-18:00 beside a TICKETED_EVENT 19:00-02:00',
      day('halloweenHorrorNights'),
      ['09:00', '18:00'],
      [['TICKETED_EVENT', 'Halloween Horror Nights', local(DATE, '19:00'), local(NEXT, '02:00')]],
    ],
    ['a two-block day, from the first opening to the last closing', day('twoBlocks'), ['10:00', '22:00'], []],
    [
      'a day with a row closing before it opens, that row dropped alone',
      day('closingBeforeOpening'),
      ['09:00', '18:00'],
      [],
    ],
    [
      'a day with an unparseable time and an unknown type among its rows',
      [
        ...day('normal'),
        { ...row(DATE, 'TICKETED_EVENT', '21:00', '23:00', NEW_YORK), openingTime: 'tonight' },
        { ...row(DATE, 'CLOSED', '21:00', '23:00', NEW_YORK) },
        null,
      ],
      ['09:00', '21:00'],
      [],
    ],
  ])('reads %s', (_case, rows, [opens, closes], extras) => {
    expect(publicDayOf(rowsOf(rows as UpstreamRow[]), DATE, NEW_YORK)).toEqual({
      opensAt: local(DATE, opens as string),
      closesAt: local(DATE, closes as string),
      extras: (extras as [string, string, number, number][]).map(([type, description, opensAt, closesAt]) => ({
        type,
        description,
        opensAt,
        closesAt,
      })),
    });
  });

  it('knows nothing of a date the schedule does not list (unknown, never closed)', () => {
    expect(publicDayOf(rowsOf(day('normal', NEXT)), DATE, NEW_YORK)).toBeNull();
  });

  it('knows nothing of a date with only extras', () => {
    const rows = rowsOf([row(DATE, 'TICKETED_EVENT', '19:00', '23:00', NEW_YORK, 'Party')]);
    expect(publicDayOf(rows, DATE, NEW_YORK)).toBeNull();
  });

  it.each([
    ['an empty schedule', { schedule: [] }],
    ['a schedule of bad rows only', { schedule: day('closingBeforeOpening').slice(1) }],
    ['no schedule at all', { message: 'not found' }],
    ['a schedule that is not a list', { schedule: 'soon' }],
  ])('refuses %s as a fault, so that the last good copy stays', (_case, payload) => {
    expect(() => scheduleRowsOf(payload, 'test')).toThrow(UpstreamError);
  });
});

describe('the public day a moment belongs to (synthetic schedules)', () => {
  const pastMidnight = rowsOf([...day('pastMidnight'), ...day('normal', NEXT)]);

  it.each([
    ['00:30, before the previous day closes at 01:00: still the previous day, open', `${NEXT}T00:30`, DATE, true],
    ['01:00, the previous day just closed: today, not open yet', `${NEXT}T01:00`, NEXT, false],
    ['12:00: today, open', `${NEXT}T12:00`, NEXT, true],
    ['21:00, today just closed', `${NEXT}T21:00`, NEXT, false],
  ])('at %s', (_case, moment, date, open) => {
    const now = at(`${moment}:00-04:00`);
    const hours = currentDayOf(pastMidnight, now, NEW_YORK);
    expect(hours).toEqual(publicDayOf(pastMidnight, date, NEW_YORK));
    expect(isOpenAt(hours, now)).toBe(open);
  });

  it("lists the previous night's Halloween Horror Nights among today's extras while it runs past midnight", () => {
    const rows = rowsOf([...day('halloweenHorrorNights'), ...day('halloweenHorrorNights', NEXT)]);
    const hours = currentDayOf(rows, local(NEXT, '01:00'), NEW_YORK);
    expect(hours?.opensAt).toBe(local(NEXT, '09:00'));
    expect(hours?.extras.map((extra) => extra.opensAt)).toEqual([local(DATE, '19:00'), local(NEXT, '19:00')]);
    expect(isOpenAt(hours, local(NEXT, '01:00'))).toBe(false);
  });

  it('says neither open nor closed when the hours are unknown', () => {
    expect(isOpenAt(currentDayOf([], Date.now(), NEW_YORK), Date.now())).toBeNull();
  });

  it('reads a DST day (clocks forward on 8 March 2026 in New York) in the offsets of each moment', () => {
    const rows = rowsOf([...SYNTHETIC_DAYS.extendedEvening('2026-03-07', NEW_YORK), ...day('normal', '2026-03-08')]);
    const hours = currentDayOf(rows, at('2026-03-08T12:00:00Z'), NEW_YORK); // 08:00 EDT
    expect(hours).toEqual({
      opensAt: at('2026-03-08T13:00:00Z'), // 09:00 EDT
      closesAt: at('2026-03-09T01:00:00Z'), // 21:00 EDT
      extras: [
        {
          type: 'TICKETED_EVENT',
          description: 'Extended Evening',
          opensAt: at('2026-03-08T04:00:00Z'), // 23:00 EST the evening before
          closesAt: at('2026-03-08T06:00:00Z'), // 01:00 EST, before the clocks jump at 02:00
        },
      ],
    });
    expect(isOpenAt(hours, at('2026-03-08T12:59:59Z'))).toBe(false);
    expect(isOpenAt(hours, at('2026-03-08T13:00:00Z'))).toBe(true);
  });
});
