import { describe, expect, it } from 'vitest';
import type { ParkHours } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { hoursLine, spanOf } from '../../../src/widget/park-hours-line.ts';

const MINUTE = 60_000;
const PARK_ZONE = 'America/New_York';
/** Unix ms of a New York wall-clock time on 4 July 2026 (EDT, UTC−4), `days` later. */
const ny = (hours: number, minutes = 0, days = 0) => Date.UTC(2026, 6, 4 + days, hours + 4, minutes);
const day = (opensAt: number, closesAt: number): ParkHours => ({ opensAt, closesAt, extras: [] });

const NORMAL = day(ny(9), ny(22));
/** Open until 01:00 the next morning. */
const PAST_MIDNIGHT = day(ny(10), ny(1, 0, 1));
const AT_HOME = { timeZone: PARK_ZONE, locale: 'en-GB' };

describe('hoursLine: the park’s hours in one line, on the park’s clock', () => {
  it.each([
    { when: 'before opening', hours: NORMAL, now: ny(7, 30), text: 'Opens at 9:00', spoken: 'Opens at 9:00.' },
    {
      when: 'open with minutes left',
      hours: NORMAL,
      now: ny(20, 40),
      text: 'Open 9:00–22:00 · closes in 1 h 20 min',
      spoken: 'Open from 9:00 to 22:00, closes in 1 hour 20 minutes.',
    },
    {
      when: 'open at the opening minute',
      hours: NORMAL,
      now: ny(9),
      text: 'Open 9:00–22:00 · closes in 13 h',
      spoken: 'Open from 9:00 to 22:00, closes in 13 hours.',
    },
    {
      when: 'open with seconds left',
      hours: NORMAL,
      now: ny(22) - 20_000,
      text: 'Open 9:00–22:00 · closes in 1 min',
      spoken: 'Open from 9:00 to 22:00, closes in 1 minute.',
    },
    {
      when: 'after closing, the same date',
      hours: NORMAL,
      now: ny(22),
      text: 'Closed for today · was open 9:00–22:00',
      spoken: 'Closed for today; it was open from 9:00 to 22:00.',
    },
    {
      when: 'open past midnight, before it',
      hours: PAST_MIDNIGHT,
      now: ny(23),
      text: 'Open 10:00–1:00 · closes in 2 h',
      spoken: 'Open from 10:00 to 1:00, closes in 2 hours.',
    },
    {
      when: 'open past midnight, after it',
      hours: PAST_MIDNIGHT,
      now: ny(0, 30, 1),
      text: 'Open 10:00–1:00 · closes in 30 min',
      spoken: 'Open from 10:00 to 1:00, closes in 30 minutes.',
    },
  ])('$when: “$text”', ({ hours, now, text, spoken }) => {
    const line = hoursLine(hours, now, PARK_ZONE, AT_HOME);
    expect(line && { text: line.text, spoken: line.spoken }).toEqual({ text, spoken });
  });

  it('names the state for the page', () => {
    const state = (now: number) => hoursLine(NORMAL, now, PARK_ZONE, AT_HOME)?.state;
    expect([state(ny(8)), state(ny(12)), state(ny(23))]).toEqual(['before', 'open', 'closed']);
  });

  it.each([
    ['the hours are unknown', null, ny(12)],
    ['a past-midnight day has closed (today’s hours not asked for yet)', PAST_MIDNIGHT, ny(1, 30, 1)],
    ['a copy of yesterday’s hours is all there is', NORMAL, ny(8, 0, 1)],
    ['a copy of yesterday’s hours, after today’s opening time', NORMAL, ny(12, 0, 1)],
  ])('says nothing when %s', (_, hours, now) => {
    expect(hoursLine(hours, now, PARK_ZONE, AT_HOME)).toBeNull();
  });

  it.each([
    ['Paris, 6 hours ahead', 'Europe/Paris', 'Open 9:00–22:00 park time · closes in 1 h 20 min'],
    [
      'Tokyo, where the park’s closing falls on another date',
      'Asia/Tokyo',
      'Open 9:00–22:00 park time · closes in 1 h 20 min',
    ],
    ['Toronto, another zone on the same clock', 'America/Toronto', 'Open 9:00–22:00 · closes in 1 h 20 min'],
    ['the park’s own zone', PARK_ZONE, 'Open 9:00–22:00 · closes in 1 h 20 min'],
  ])('says “park time” when the reader’s clock differs: %s', (_, timeZone, text) => {
    expect(hoursLine(NORMAL, ny(20, 40), PARK_ZONE, { timeZone, locale: 'en-GB' })?.text).toBe(text);
  });

  it('says “park time” when the clocks agree now but not at closing (a DST change between)', () => {
    // A reader on a fixed UTC−4 reads the park's clock in July, but not at a closing after New
    // York's clocks went back (a long synthetic span, to put the change in between).
    const winterClosing = day(ny(9), Date.UTC(2026, 10, 1, 23)); // New York is on EST again by then
    const line = hoursLine(winterClosing, ny(20), PARK_ZONE, { timeZone: 'Etc/GMT+4', locale: 'en-GB' });
    expect(line?.text).toMatch(/ park time · closes in /);
  });

  it('writes times in the reader’s 12- or 24-hour style', () => {
    const reader = { timeZone: PARK_ZONE, locale: 'en-US' };
    expect(hoursLine(NORMAL, ny(7), PARK_ZONE, reader)?.text).toBe('Opens at 9:00 AM');
    expect(hoursLine(NORMAL, ny(23), PARK_ZONE, reader)?.text).toBe('Closed for today · was open 9:00 AM–10:00 PM');
  });
});

describe('spanOf: a time left, rounded up to the minute', () => {
  it.each([
    [0, '1 min', '1 minute'],
    [59 * MINUTE + 1, '1 h', '1 hour'],
    [61 * MINUTE, '1 h 1 min', '1 hour 1 minute'],
    [45 * MINUTE, '45 min', '45 minutes'],
    [(2 * 60 + 2) * MINUTE, '2 h 2 min', '2 hours 2 minutes'],
  ])('%i ms is “%s” (“%s”)', (ms, short, long) => {
    expect(spanOf(ms)).toEqual([short, long]);
  });
});
