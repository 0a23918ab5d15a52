import { describe, expect, it } from 'vitest';
import { ReopenTableSchema } from '../../../src/wait-times/outages/outage-schemas.ts';
import {
  beforeClosing,
  bucketFor,
  type Duration,
  MIN_RUNNING,
  reopenChance,
  reopenTableOf,
  runningAt,
  survivalAt,
  survivalOf,
} from '../../../src/wait-times/outages/reopen-odds.ts';

const ended = (minutes: number): Duration => ({ minutes, reopened: true });
const censored = (minutes: number): Duration => ({ minutes, reopened: false });
const many = (count: number, make: () => Duration) => Array.from({ length: count }, make);

describe('Kaplan–Meier over outages', () => {
  it.each([
    // No censoring: the empirical share still down.
    { durations: [ended(10), ended(20), ended(30), ended(40)], at: 25, expected: 0.5 },
    // A censored outage at 15 leaves the risk set: S(25) = (3/4) · (1/2).
    { durations: [ended(10), censored(15), ended(20), ended(40)], at: 25, expected: 0.375 },
    // Nothing ended: everyone still down.
    { durations: [censored(30)], at: 60, expected: 1 },
    { durations: [], at: 10, expected: 1 },
  ])('S($at) of $durations.length outages is $expected', ({ durations, at, expected }) => {
    expect(survivalAt(survivalOf(durations), at)).toBeCloseTo(expected, 10);
  });

  it('reads the chance to reopen conditionally on the time already down', () => {
    const curve = survivalOf([ended(10), ended(20), ended(30), ended(40)]);
    // Down 15: of the 3 still down, 1 is back by 25.
    expect(reopenChance(curve, 15, 10)).toBeCloseTo(1 / 3, 10);
    expect(reopenChance(curve, 40, 10)).toBeNull(); // no outage lasted past 40
  });

  it('counts the outages still running at a point', () => {
    expect(runningAt([ended(10), censored(20), ended(30)], 15)).toBe(2);
  });
});

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
    // Past 20 minutes only the 90-minute outages run: none ends within 15 minutes at 30.
    expect(thirty).toMatchObject({ scope: 'park', outages: 30, reopenWithin: { '15': 0 } });
    for (const bucket of table.buckets) {
      for (const chance of Object.values(bucket.reopenWithin ?? {})) expect((chance * 20) % 1).toBeCloseTo(0, 10);
    }
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

  it('ignores durations that are not numbers', () => {
    const odd = [...history, { minutes: Number.NaN, reopened: true }, { minutes: -5, reopened: true }];
    expect(reopenTableOf(odd, odd, 1).buckets).toEqual(reopenTableOf(history, history, 1).buckets);
  });

  it('picks the bucket a ride down d minutes falls in', () => {
    const table = reopenTableOf(history, history, 1);
    expect(bucketFor(table, 3)).toBeNull();
    expect(bucketFor(table, 10)?.elapsed).toBe(5);
    expect(bucketFor(table, 45)?.elapsed).toBe(30);
    expect(bucketFor(table, 500)?.elapsed).toBe(120);
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
