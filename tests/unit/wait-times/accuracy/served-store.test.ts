import { describe, expect, it } from 'vitest';
import { type ServedDayRecord, ServedDayRecordSchema } from '../../../../src/wait-times/accuracy/accuracy-schemas.ts';
import type { ServedPoll, StoredServed } from '../../../../src/wait-times/accuracy/served-forecasts.ts';
import { appendPoll, servedByRide } from '../../../../src/wait-times/accuracy/served-store.ts';

const T0 = Date.parse('2026-07-04T10:00:00Z');
const FIVE = 5 * 60_000;
const entry = (wait: number): StoredServed => [
  wait,
  wait + 5,
  wait + 10,
  wait + 15,
  wait,
  null,
  wait,
  T0 + 3_600_000,
  5,
];
const poll = (at: number, rides: Record<string, number>): ServedPoll => ({
  at,
  rides: new Map(Object.entries(rides).map(([id, wait]) => [id, { name: `Ride ${id}`, served: entry(wait) }])),
});
const empty: ServedDayRecord = { version: 1, date: '2026-07-04', times: [], rides: {} };

describe('the archive of a park-day', () => {
  it('keeps every ride in step with the polls, null where it was not open', () => {
    const day = [poll(T0, { '1': 10 }), poll(T0 + FIVE, { '2': 20 }), poll(T0 + 2 * FIVE, { '1': 30, '2': 40 })].reduce(
      appendPoll,
      empty,
    );
    expect(ServedDayRecordSchema.parse(day)).toEqual(day);
    expect(day.times).toEqual([T0, T0 + FIVE, T0 + 2 * FIVE]);
    expect(day.rides['1']?.served).toEqual([entry(10), null, entry(30)]);
    expect(day.rides['2']?.served).toEqual([null, entry(20), entry(40)]);
  });

  it('ignores a poll at or before its last time', () => {
    const day = appendPoll(empty, poll(T0, { '1': 10 }));
    expect(appendPoll(day, poll(T0, { '1': 15 }))).toBe(day);
  });

  it('decodes each open ride’s entries into what was served', () => {
    const day = [poll(T0, { '1': 10 }), poll(T0 + FIVE, {})].reduce(appendPoll, empty);
    expect(servedByRide(day).get('1')).toEqual([
      {
        at: T0,
        wait: 10,
        forecasts: { 30: 15, 60: 20, 120: 25 },
        usual: { 30: 10, 60: null, 120: 10 },
        bestTime: { at: T0 + 3_600_000, wait: 5 },
      },
    ]);
  });
});
