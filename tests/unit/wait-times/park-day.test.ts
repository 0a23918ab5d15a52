import { describe, expect, it } from 'vitest';
import { DayRecordSchema, MAX_DAY_RIDES, MAX_DAY_SAMPLES } from '../../../src/wait-times/day/history-schemas.ts';
import {
  addSamples,
  dayBoundsOf,
  emptyDay,
  localDateOf,
  previousDate,
  SLOT_MS,
  wouldAdd,
} from '../../../src/wait-times/day/park-day.ts';
import type { HistorySample } from '../../../src/wait-times/park-snapshot-schemas.ts';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

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

const T0 = at('2026-07-04T16:00:00Z');
const sample = (offsetMs: number, waits: Record<string, number | null>): HistorySample => ({
  at: T0 + offsetMs,
  waits,
});
const NAMES = { '1': 'Alpha', '2': 'Beta' };

describe('addSamples: a day as a bounded, order-free set of samples', () => {
  const a = sample(0, { '1': 10, '2': null });
  const b = sample(5 * 60_000, { '1': 15, '2': 30 });
  const c = sample(10 * 60_000, { '1': 20 });

  it('keeps waits in columns in step with the times; a ride not listed in a sample is null there', () => {
    const day = addSamples(emptyDay('2026-07-04'), [c, a, b], NAMES);
    expect(day.times).toEqual([a.at, b.at, c.at]);
    expect(day.rides).toEqual({
      '1': { name: 'Alpha', waits: [10, 15, 20] },
      '2': { name: 'Beta', waits: [null, 30, null] },
    });
    expect(DayRecordSchema.parse(day)).toEqual(day);
  });

  it('gives the same day whatever the order, and adding a sample twice changes nothing', () => {
    const one = addSamples(addSamples(emptyDay('2026-07-04'), [a], NAMES), [c, b], NAMES);
    const two = addSamples(addSamples(emptyDay('2026-07-04'), [b, c], NAMES), [a, b, a], NAMES);
    expect(two).toEqual(one);
  });

  it('keeps the earlier of two samples in one 5-minute slot (two instances refreshing together)', () => {
    const late = sample(60_000, { '1': 99 });
    const day = addSamples(emptyDay('2026-07-04'), [late, a], NAMES);
    expect(day.times).toEqual([a.at]);
    expect(wouldAdd(day, late.at)).toBe(false);
    expect(wouldAdd(day, b.at)).toBe(true);
  });

  it(`holds at most ${MAX_DAY_SAMPLES} samples (a 25-hour day at one per slot) and ${MAX_DAY_RIDES} rides`, () => {
    const rides = Object.fromEntries(Array.from({ length: MAX_DAY_RIDES + 20 }, (_, i) => [String(i), `Ride ${i}`]));
    const samples = Array.from({ length: MAX_DAY_SAMPLES + 50 }, (_, i) =>
      sample(i * SLOT_MS, Object.fromEntries(Object.keys(rides).map((id) => [id, i % 2 ? 45 : null]))),
    );
    const day = addSamples(emptyDay('2026-07-04'), samples, rides);
    expect(day.times).toHaveLength(MAX_DAY_SAMPLES);
    expect(Object.keys(day.rides)).toHaveLength(MAX_DAY_RIDES);
    expect(DayRecordSchema.safeParse(day).success).toBe(true);
  });

  it('stays under 140 KB at its bounds (100 rides, 300 samples, 3-digit waits, 60-character names)', () => {
    const rides = Object.fromEntries(
      Array.from({ length: MAX_DAY_RIDES }, (_, i) => [String(100_000 + i), 'x'.repeat(60)]),
    );
    const samples = Array.from({ length: MAX_DAY_SAMPLES }, (_, i) =>
      sample(i * SLOT_MS, Object.fromEntries(Object.keys(rides).map((id) => [id, 480]))),
    );
    const day = addSamples(emptyDay('2026-07-04'), samples, rides);
    expect(Buffer.byteLength(JSON.stringify(day))).toBeLessThan(140 * 1024);
  });
});

describe('the stored day record', () => {
  it.each<[string, unknown, boolean]>([
    ['whole minutes and closed slots', [0, 45, null, 120, null], true],
    ['no waits at all', [], true],
    ['a very long wait', [Number.MAX_SAFE_INTEGER], true],
    ['a negative wait', [5, -5], false],
    ['a fractional wait', [12.5], false],
    ['a wait as text', ['45'], false],
    ['an object in place of the list', { 0: 45 }, false],
    ['null in place of the list', null, false],
  ])('takes %s as waits: %s', (_case, waits, valid) => {
    const times = Array.isArray(waits) ? waits.map((_, slot) => slot * SLOT_MS) : [];
    const day = { version: 1, date: '2026-07-04', times, rides: { 1: { name: 'Ride', waits } } };
    expect(DayRecordSchema.safeParse(day).success).toBe(valid);
  });
});
