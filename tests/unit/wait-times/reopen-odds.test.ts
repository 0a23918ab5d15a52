import { describe, expect, it } from 'vitest';
import { type ReopenTable, ReopenTableSchema } from '../../../src/wait-times/outages/outage-schemas.ts';
import {
  beforeClosing,
  bucketFor,
  type Duration,
  MIN_RUNNING,
  oddsFor,
  reopenTableOf,
  runningAt,
} from '../../../src/wait-times/outages/reopen-odds.ts';

const ended = (minutes: number, more: Partial<Duration> = {}): Duration => ({ minutes, reopened: true, ...more });
const closing = (minutes: number): Duration => ({ minutes, reopened: false });
const many = (count: number, make: () => Duration) => Array.from({ length: count }, make);

describe('reopenTableOf: per park, the pool where the park has too few', () => {
  // Half the outages end at 20 minutes, half at 90: the longer a ride is down, the less likely it is back soon.
  const history = [...many(30, () => ended(20)), ...many(30, () => ended(90))];

  it('answers from the park’s own outages where at least 24 still run, rounded to 5 %', () => {
    const table = reopenTableOf(history, history, 1);
    expect(ReopenTableSchema.parse(table)).toEqual(table);
    const [five, fifteen, thirty] = table.buckets;
    expect(five).toMatchObject({ elapsed: 5, scope: 'park', outages: 60 });
    expect(five?.reopenWithin?.['15']).toBeGreaterThan(0);
    expect(fifteen?.reopenWithin?.['15']).toBeGreaterThan(thirty?.reopenWithin?.['15'] ?? 1);
    expect(thirty).toMatchObject({ scope: 'park', outages: 30 });
    for (const { reopenWithin, phases } of table.buckets) {
      for (const odds of [reopenWithin, phases?.opening, phases?.day, phases?.closing]) {
        for (const chance of Object.values(odds ?? {})) expect((chance * 20) % 1).toBeCloseTo(0, 10);
        // Never less likely within a longer horizon.
        if (odds) expect(odds['15'] <= odds['30'] && odds['30'] <= odds['60']).toBe(true);
      }
    }
  });

  it.each([
    // Every ride seen down from 30 minutes was back within the hour.
    { name: 'all back', durations: many(60, () => ended(60)), within60: 1 },
    // Half were still down when the park closed: not back, not unknown (a Kaplan–Meier curve said 1).
    {
      name: 'half down at the closing',
      durations: [...many(30, () => ended(60)), ...many(30, () => closing(60))],
      within60: 0.5,
    },
  ])('counts a ride down at the closing as not back: $name', ({ durations, within60 }) => {
    const bucket = bucketFor(reopenTableOf(durations, durations, 1), 30);
    expect(bucket?.reopenWithin?.['60']).toBe(within60);
  });

  it('falls back to the pool for a park without history, and says null when the pool is empty too', () => {
    const table = reopenTableOf([], history, 1);
    expect(table.buckets[0]).toMatchObject({ scope: 'all parks', outages: 60 });
    expect(table.buckets[0]?.reopenWithin).not.toBeNull();
    const nothing = reopenTableOf([], [], 1);
    expect(nothing.buckets.every((bucket) => bucket.reopenWithin === null && bucket.outages === 0)).toBe(true);
    // Fewer than 24 still running anywhere: null, not a guess.
    const few = many(MIN_RUNNING - 1, () => ended(20));
    expect(reopenTableOf(few, few, 1).buckets[0]?.reopenWithin).toBeNull();
  });

  it('pulls a park’s own share towards the pool’s', () => {
    const quick = many(30, () => ended(20));
    const slow = many(300, () => ended(200));
    const [own, pooled, mixed] = [
      reopenTableOf(quick, quick, 1),
      reopenTableOf([], slow, 1),
      reopenTableOf(quick, [...quick, ...slow], 1),
    ].map((table) => table.buckets[0]?.reopenWithin?.['15'] ?? Number.NaN);
    expect(mixed).toBeLessThan(own ?? 0);
    expect(mixed).toBeGreaterThan(pooled ?? 1);
  });

  it('refines the odds by the part of the day, from the park’s own moments', () => {
    // Down in the first hour after the opening: back in 20 minutes; later in the day: in 90.
    const early = many(40, () => ended(20, { sinceOpening: 10, toClosing: 700 }));
    const late = many(40, () => ended(90, { sinceOpening: 300, toClosing: 400 }));
    const five = reopenTableOf([...early, ...late], [...early, ...late], 1).buckets[0];
    expect(five?.phases?.opening?.['15']).toBeGreaterThan(five?.reopenWithin?.['15'] ?? 1);
    expect(five?.phases?.day?.['15']).toBeLessThan(five?.reopenWithin?.['15'] ?? 0);
    // No moment in the closing phase: the bucket's own odds.
    expect(five?.phases?.closing).toEqual(five?.reopenWithin);
  });

  it('ignores durations that are not numbers', () => {
    const odd = [...history, { minutes: Number.NaN, reopened: true }, { minutes: -5, reopened: true }];
    expect(reopenTableOf(odd, odd, 1).buckets).toEqual(reopenTableOf(history, history, 1).buckets);
    expect(runningAt(odd, 15)).toBe(60);
  });

  it('picks the bucket a ride down d minutes falls in', () => {
    const table = reopenTableOf(history, history, 1);
    expect(bucketFor(table, 3)).toBeNull();
    expect(bucketFor(table, 10)?.elapsed).toBe(5);
    expect(bucketFor(table, 45)?.elapsed).toBe(30);
    expect(bucketFor(table, 500)?.elapsed).toBe(120);
  });
});

describe('oddsFor: what the read side serves for a ride down now', () => {
  const odds = (chance: number) => ({ '15': chance, '30': chance, '60': chance });
  const table: ReopenTable = {
    version: 1,
    builtAt: 1,
    buckets: [
      {
        elapsed: 5,
        reopenWithin: odds(0.3),
        outages: 40,
        scope: 'park',
        phases: { opening: odds(0.5), day: odds(0.25), closing: odds(0.1) },
      },
      // An older table: no phases.
      { elapsed: 15, reopenWithin: odds(0.2), outages: 30, scope: 'all parks' },
      { elapsed: 30, reopenWithin: null, outages: 3, scope: 'all parks' },
    ],
  };
  it.each([
    { name: 'too short', now: [3, 30, 600], expected: null },
    {
      name: 'opening',
      now: [10, 30, 600],
      expected: { elapsed: 5, reopenWithin: odds(0.5), outages: 40, scope: 'park' },
    },
    {
      name: 'day',
      now: [10, 300, 300],
      expected: { elapsed: 5, reopenWithin: odds(0.25), outages: 40, scope: 'park' },
    },
    {
      name: 'closing',
      now: [10, 600, 100],
      expected: { elapsed: 5, reopenWithin: odds(0.1), outages: 40, scope: 'park' },
    },
    {
      name: 'hours unknown',
      now: [10, null, null],
      expected: { elapsed: 5, reopenWithin: odds(0.3), outages: 40, scope: 'park' },
    },
    // 15 minutes to the closing: nothing reopens after it, so every horizon is the 15-minute chance.
    {
      name: 'cut at the closing',
      now: [10, 600, 15],
      expected: { elapsed: 5, reopenWithin: odds(0.1), outages: 40, scope: 'park' },
    },
    {
      name: 'closed',
      now: [10, 600, 0],
      expected: { elapsed: 5, reopenWithin: odds(0), outages: 40, scope: 'park' },
    },
    {
      name: 'no phases',
      now: [20, 300, 300],
      expected: { elapsed: 15, reopenWithin: odds(0.2), outages: 30, scope: 'all parks' },
    },
    {
      name: 'no odds',
      now: [40, 300, 300],
      expected: { elapsed: 30, reopenWithin: null, outages: 3, scope: 'all parks' },
    },
  ])('$name', ({ now: [minutesDown = 0, minutesSinceOpening = null, minutesToClosing = null], expected }) => {
    expect(oddsFor(table, { minutesDown: minutesDown ?? 0, minutesSinceOpening, minutesToClosing })).toEqual(expected);
  });

  it('says null without a table', () => {
    expect(oddsFor(null, { minutesDown: 20, minutesSinceOpening: 100, minutesToClosing: 300 })).toBeNull();
  });
});

describe('beforeClosing: no reopening after the park closes', () => {
  const odds = { '15': 0.2, '30': 0.4, '60': 0.6 };
  it.each([
    { minutesToClosing: null, expected: odds },
    { minutesToClosing: 90, expected: odds },
    // 45 minutes left: within 60 is within 45, halfway from 30 to 60.
    { minutesToClosing: 45, expected: { '15': 0.2, '30': 0.4, '60': 0.5 } },
    // 15 minutes left: every horizon is the 15-minute chance.
    { minutesToClosing: 15, expected: { '15': 0.2, '30': 0.2, '60': 0.2 } },
    { minutesToClosing: 0, expected: { '15': 0, '30': 0, '60': 0 } },
    { minutesToClosing: -10, expected: { '15': 0, '30': 0, '60': 0 } },
  ])('with $minutesToClosing minutes to closing', ({ minutesToClosing, expected }) => {
    expect(beforeClosing(odds, minutesToClosing)).toEqual(expected);
  });
});
