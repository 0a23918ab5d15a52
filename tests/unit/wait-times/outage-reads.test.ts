import { describe, expect, it } from 'vitest';
import { downOf, outagesByRide } from '../../../src/wait-times/outages/outage-reads.ts';
import type { Outage, ReopenBucket, ReopenTable } from '../../../src/wait-times/outages/outage-schemas.ts';

/** What a ride down is served from its outages today and the park's reopen table (outage-reads.ts). */

const MINUTE = 60_000;
const T0 = Date.parse('2026-07-04T12:00:00Z');

/** Odds in 5 % steps (whole percents, so no float noise); null: too few outages. */
const bucket = (elapsed: number, within30: number | null, outages: number, scope: ReopenBucket['scope']) => ({
  elapsed,
  reopenWithin:
    within30 === null ? null : { '15': (within30 - 10) / 100, '30': within30 / 100, '60': (within30 + 10) / 100 },
  outages,
  scope,
});
const TABLE: ReopenTable = {
  version: 1,
  builtAt: T0,
  buckets: [bucket(5, 55, 412, 'park'), bucket(30, 35, 1874, 'all parks'), bucket(60, null, 9, 'all parks')],
};
/** The newest sample at T0, midday: the park opened 3 hours before and closes 8 hours later (no cut). */
const HOURS = { opensAt: T0 - 3 * 60 * MINUTE, closesAt: T0 + 8 * 60 * MINUTE };
const AT_T0 = { asOf: T0, hours: HOURS };

const outage = (ride: string, from: number, to: number | null, minutes: number): Outage => ({
  ride,
  from,
  to,
  minutes,
  censored: null,
});

describe('the bucket that answers for a ride down so long', () => {
  it.each([
    [4, null], // shorter than the first bucket: no odds rest on it
    [5, 5],
    [29, 5], // never a bucket the ride has not reached
    [30, 30],
    [59, 30],
  ])('down %i min: the odds of the %s-minute bucket', (minutes, elapsed) => {
    const down = downOf([outage('8', T0 - minutes * MINUTE, null, minutes)], TABLE, AT_T0);
    const chosen = TABLE.buckets.find((entry) => entry.elapsed === elapsed);
    expect(down?.reopenWithin ?? null).toEqual(chosen?.reopenWithin ?? null);
    expect(down?.outages).toBe(chosen?.outages ?? 0);
  });
});

describe('a ride’s down now', () => {
  it('takes its ongoing outage, counted to the newest sample, with the odds and scope of its bucket', () => {
    const list = [outage('8', T0 - 90 * MINUTE, T0 - 70 * MINUTE, 20), outage('8', T0 - 40 * MINUTE, null, 35)];
    expect(downOf(list, TABLE, AT_T0)).toEqual({
      since: T0 - 40 * MINUTE,
      minutes: 40,
      reopenWithin: { '15': 0.25, '30': 0.35, '60': 0.45 },
      outages: 1874,
      scope: 'all parks',
    });
  });

  it('keeps the stored count when the record is newer than the day’s newest sample', () => {
    expect(downOf([outage('8', T0 - 10 * MINUTE, null, 15)], TABLE, AT_T0)?.minutes).toBe(15);
  });

  it('says no odds plainly: a bucket without odds, no table, or too short an outage', () => {
    const long = [outage('8', T0 - 75 * MINUTE, null, 75)];
    expect(downOf(long, TABLE, AT_T0)).toMatchObject({ reopenWithin: null, outages: 9, scope: 'all parks' });
    expect(downOf(long, null, AT_T0)).toEqual({
      since: T0 - 75 * MINUTE,
      minutes: 75,
      reopenWithin: null,
      outages: 0,
      scope: null,
    });
    const short = [outage('8', T0 - 3 * MINUTE, null, 3)];
    expect(downOf(short, TABLE, AT_T0)).toMatchObject({ minutes: 3, reopenWithin: null, scope: null });
  });

  it('cuts the odds to the time left within the last hour before closing, and leaves them with it unknown', () => {
    const list = [outage('8', T0 - 40 * MINUTE, null, 40)];
    const closingIn20 = downOf(list, TABLE, { asOf: T0, hours: { ...HOURS, closesAt: T0 + 20 * MINUTE } });
    expect(closingIn20?.reopenWithin).toEqual({ '15': 0.25, '30': 0.3, '60': 0.3 });
    expect(downOf(list, TABLE, { asOf: T0, hours: null })?.reopenWithin).toEqual({
      '15': 0.25,
      '30': 0.35,
      '60': 0.45,
    });
  });

  it.each([
    ['in its first 90 minutes', T0 - 30 * MINUTE, { '15': 0.5, '30': 0.6, '60': 0.7 }],
    ['in the middle of the day', T0 - 3 * 60 * MINUTE, { '15': 0.25, '30': 0.35, '60': 0.45 }],
  ])('takes the odds of the part of the day the park is %s', (_, opensAt, expected) => {
    const phases = { opening: { '15': 0.5, '30': 0.6, '60': 0.7 }, day: null, closing: null };
    const table = { ...TABLE, buckets: TABLE.buckets.map((entry) => ({ ...entry, phases })) };
    const list = [outage('8', T0 - 40 * MINUTE, null, 40)];
    expect(downOf(list, table, { asOf: T0, hours: { ...HOURS, opensAt } })?.reopenWithin).toEqual(expected);
  });

  it('is null when every outage of the day has ended', () => {
    expect(downOf([outage('8', T0 - 40 * MINUTE, T0 - 20 * MINUTE, 20)], TABLE, AT_T0)).toBeNull();
    expect(downOf([], TABLE, AT_T0)).toBeNull();
  });
});

describe('the day’s outages by ride', () => {
  it('groups them by ride id, each ride’s in order of their start', () => {
    const byRide = outagesByRide({
      version: 1,
      date: '2026-07-04',
      updatedAt: T0,
      outages: [
        outage('8', T0 - 10 * MINUTE, null, 10),
        outage('17', T0, null, 0),
        outage('8', T0 - 60 * MINUTE, T0 - 50 * MINUTE, 10),
      ],
      holds: [],
    });
    expect([...byRide.keys()].sort()).toEqual(['17', '8']);
    expect(byRide.get('8')?.map((entry) => entry.from)).toEqual([T0 - 60 * MINUTE, T0 - 10 * MINUTE]);
    expect(outagesByRide(null).size).toBe(0);
  });
});
