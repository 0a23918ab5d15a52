import { describe, expect, it } from 'vitest';
import { pollTimesOf } from '../../../scripts/demo/simulate-days.mts';

/** The demo's seeded days (scripts/demo/simulate-days.mts) are polled when the recorder would have polled them. */

const MINUTE = 60_000;
const DATE = '2026-07-04';
const at = (time: string) => Date.parse(`${DATE}T${time}:00Z`);
const HOURS = { opensAt: at('09:00'), closesAt: at('21:00') };

describe('the polls of a simulated day', () => {
  it('run every 5 minutes from 30 minutes before opening to 30 minutes after closing', () => {
    const times = pollTimesOf(HOURS, DATE, 'UTC', Number.POSITIVE_INFINITY);
    expect(times[0]).toBe(at('08:30'));
    expect(times.at(-1)).toBe(at('21:30'));
    expect(times).toHaveLength(13 * 12 + 1);
    expect(new Set(times.slice(1).map((time, index) => time - (times[index] ?? 0)))).toEqual(new Set([5 * MINUTE]));
  });

  it('stop before `until` (today so far) and within the local day', () => {
    expect(pollTimesOf(HOURS, DATE, 'UTC', at('10:02')).at(-1)).toBe(at('10:00'));
    const pastMidnight = { opensAt: at('10:00'), closesAt: at('10:00') + 15 * 60 * MINUTE };
    expect(pollTimesOf(pastMidnight, DATE, 'UTC', Number.POSITIVE_INFINITY).at(-1)).toBe(at('23:55'));
  });

  it('are none on a day whose hours are unknown', () => {
    expect(pollTimesOf(null, DATE, 'UTC', Number.POSITIVE_INFINITY)).toEqual([]);
  });
});
