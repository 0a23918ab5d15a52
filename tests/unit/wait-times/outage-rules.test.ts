import { describe, expect, it } from 'vitest';
import {
  closedHalfHoursOf,
  type DayContext,
  halfHourOf,
  outagesOfDay,
  type SampleSeries,
  usuallyClosedOf,
} from '../../../src/wait-times/outages/outage-rules.ts';
import { DayOutagesSchema } from '../../../src/wait-times/outages/outage-schemas.ts';

// The rules of docs/outages.md on a park day sampled every 5 minutes from 10:00 UTC, one letter per
// sample and ride: "o" open, "x" closed.

const MINUTE = 60_000;
const T0 = Date.parse('2026-07-04T10:00:00Z');
const DAY_ENDS = Date.parse('2026-07-05T00:00:00Z');
const t = (step: number) => T0 + step * 5 * MINUTE;

/** A series from one pattern per ride ("oox…"), sampled every 5 minutes from T0. */
function seriesOf(patterns: Record<string, string>, times?: number[]): SampleSeries {
  const length = Math.max(...Object.values(patterns).map((pattern) => pattern.length));
  return {
    times: times ?? Array.from({ length }, (_, step) => t(step)),
    rides: Object.fromEntries(
      Object.entries(patterns).map(([ride, pattern]) => [
        ride,
        { waits: [...pattern].map((c) => (c === 'o' ? 10 : null)) },
      ]),
    ),
  };
}

/** Read at the newest sample, the park open 09:00–22:00 UTC. */
const context = (series: SampleSeries, extra: Partial<DayContext> = {}): DayContext => ({
  timeZone: 'UTC',
  hours: { opensAt: Date.parse('2026-07-04T09:00:00Z'), closesAt: Date.parse('2026-07-04T22:00:00Z') },
  dayEndsAt: DAY_ENDS,
  now: series.times.at(-1) ?? T0,
  ...extra,
});

const outagesOf = (patterns: Record<string, string>, extra: Partial<DayContext> = {}) => {
  const series = seriesOf(patterns);
  return outagesOfDay(series, context(series, extra));
};

describe('outagesOfDay: down rides told from closures', () => {
  it.each([
    // One closed sample between open ones: a blip.
    { name: 'a one-sample blip is no outage', patterns: { a: 'ooxoo' }, expected: [] },
    // Closed at the newest sample only: not yet an outage.
    { name: 'a first closed sample is not yet an outage', patterns: { a: 'ooox' }, expected: [] },
    // Never open today: a ride that did not open, not a breakdown.
    { name: 'a ride never open that day is not down', patterns: { a: 'xxxxx' }, expected: [] },
    // The second closed sample makes it an outage from the last open one, running.
    {
      name: 'the second closed sample makes an outage, down now',
      patterns: { a: 'ooxx' },
      expected: [{ ride: 'a', from: t(1), to: null, minutes: 10, censored: null }],
    },
    // Closed 25 minutes (5 samples), then open: 30 minutes from the last open sample to the first open one.
    {
      name: 'a ride closed for 25 minutes gives a finished outage of 30 minutes',
      patterns: { a: 'ooxxxxxoo' },
      expected: [{ ride: 'a', from: t(1), to: t(7), minutes: 30, censored: null }],
    },
    {
      name: 'two outages of one ride are kept apart',
      patterns: { a: 'oxxoxxxo' },
      expected: [
        { ride: 'a', from: t(0), to: t(3), minutes: 15, censored: null },
        { ride: 'a', from: t(3), to: t(7), minutes: 20, censored: null },
      ],
    },
  ])('$name', ({ patterns, expected }) => {
    expect(outagesOf(patterns).outages).toEqual(expected);
  });

  it('takes 5 rides closing in one sample for a park hold, noted, and no outage', () => {
    const patterns = { a: 'ooxxxo', b: 'ooxxxo', c: 'ooxxxo', d: 'ooxxxo', e: 'ooxxxo', f: 'oooooo' };
    const { outages, holds } = outagesOf(patterns);
    expect(outages).toEqual([]);
    expect(holds).toEqual([t(2)]);
    // Four at once are not a hold: each is down.
    const four = outagesOf({ a: 'ooxxxo', b: 'ooxxxo', c: 'ooxxxo', d: 'ooxxxo', f: 'oooooo' });
    expect(four.holds).toEqual([]);
    expect(four.outages.map((outage) => outage.ride)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('censors an outage at the park’s closing, and starts none in its last 30 minutes', () => {
    // Closing at 10:40: samples from 10:40 on are after it; the last closed one before it is 10:35.
    const hours = { opensAt: Date.parse('2026-07-04T09:00:00Z'), closesAt: t(8) };
    expect(outagesOf({ a: 'oxxxxxxxxo' }, { hours }).outages).toEqual([
      { ride: 'a', from: t(0), to: t(7), minutes: 35, censored: 'closing' },
    ]);
    // First closed at 10:05, 25 minutes before closing: the night's closing, not an outage.
    expect(outagesOf({ a: 'oxxxxxxx' }, { hours: { ...hours, closesAt: t(1) + 29 * MINUTE } }).outages).toEqual([]);
    // Hours unknown: the park closes when no ride is open.
    expect(outagesOf({ a: 'oxxxxx', b: 'ooooxx' }, { hours: null }).outages).toEqual([
      { ride: 'a', from: t(0), to: t(3), minutes: 15, censored: 'closing' },
    ]);
  });

  it('censors at a recorder gap over 15 minutes, at the end of the day, and when polls stopped', () => {
    const times = [t(0), t(1), t(2), t(3), t(7), t(8)]; // 20 minutes without a sample after t(3)
    const series = seriesOf({ a: 'oxxxxo' }, times);
    expect(outagesOfDay(series, context(series)).outages).toEqual([
      { ride: 'a', from: t(0), to: t(3), minutes: 15, censored: 'gap' },
    ]);
    expect(outagesOf({ a: 'oxxx' }, { now: DAY_ENDS }).outages[0]).toMatchObject({ to: t(3), censored: 'day-end' });
    expect(outagesOf({ a: 'oxxx' }, { now: t(3) + 16 * MINUTE }).outages[0]).toMatchObject({
      to: t(3),
      censored: 'gap',
    });
  });

  it('leaves out a closure in a half hour the ride is usually closed', () => {
    const usuallyClosed = { a: [halfHourOf(t(2), 'UTC')] };
    expect(outagesOf({ a: 'ooxxxo', b: 'ooxxxo' }, { usuallyClosed }).outages.map((o) => o.ride)).toEqual(['b']);
  });

  it('gives nothing, without throwing, for odd data', () => {
    const empty: SampleSeries = { times: [], rides: {} };
    expect(outagesOfDay(empty, context(empty))).toEqual({ outages: [], holds: [] });
    // A wait missing counts as not listed, which the day record stores as closed.
    const ragged: SampleSeries = { times: [t(0), t(1), t(2)], rides: { a: { waits: [10] } } };
    expect(outagesOfDay(ragged, context(ragged)).outages).toEqual([
      { ride: 'a', from: t(0), to: null, minutes: 10, censored: null },
    ]);
  });

  it('writes records the shared schema accepts', () => {
    const { outages, holds } = outagesOf({ a: 'ooxxxxxoo', b: 'oxxx' });
    expect(DayOutagesSchema.parse({ version: 1, date: '2026-07-04', updatedAt: t(8), outages, holds })).toBeTruthy();
  });
});

describe('scheduled closures', () => {
  it('finds the half hours a ride was closed in after it opened, by ride', () => {
    const series = seriesOf({ a: 'xooxxoooo', b: 'xxxxxxxxx', c: 'ooooooooo' });
    expect(closedHalfHoursOf(series, { timeZone: 'UTC', hours: null })).toEqual({ a: [20], c: [] });
  });

  it('takes a half hour closed on 4 of the last 7 recorded days as scheduled', () => {
    const day = (halfHours: number[]) => ({ a: halfHours });
    const four = [day([20]), day([20]), day([]), day([20]), day([21]), day([20])];
    expect(usuallyClosedOf(four)).toEqual({ a: [20] });
    expect(usuallyClosedOf(four.slice(1))).toEqual({}); // three days left with 20
    // Only the last 7 days count.
    expect(usuallyClosedOf([...four, day([]), day([]), day([]), day([])])).toEqual({});
  });
});
