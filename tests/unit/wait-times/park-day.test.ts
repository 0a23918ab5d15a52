import { describe, expect, it } from 'vitest';
import { DayRecordSchema, MAX_DAY_RIDES, MAX_DAY_SAMPLES } from '../../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay, SLOT_MS, wouldAdd } from '../../../src/wait-times/day/park-day.ts';
import type { HistorySample } from '../../../src/wait-times/park-snapshot-schemas.ts';

const at = (iso: string) => Date.parse(iso);

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
