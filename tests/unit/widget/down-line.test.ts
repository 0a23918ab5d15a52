import { describe, expect, it } from 'vitest';
import type { RideDown } from '../../../src/wait-times/day/history-schemas.ts';
import { downOf, downText, durationText } from '../../../src/widget/down-line.ts';

/** The widget's line for a ride down (down-line.ts), as the park page and embedders show it. */

const SINCE = Date.parse('2026-07-04T12:00:00Z');
const down = (change: Partial<RideDown>): RideDown => ({
  since: SINCE,
  minutes: 12,
  reopenWithin: { '15': 0.35, '30': 0.55, '60': 0.7 },
  outages: 412,
  scope: 'park',
  ...change,
});

describe('the down line', () => {
  it.each<[string, Partial<RideDown>, string]>([
    ['the park’s own odds', {}, 'Down 12 min · about 55 % back within 30 min, from 412 outages'],
    [
      'pooled odds, said so, the count grouped',
      { minutes: 45, reopenWithin: { '15': 0.2, '30': 0.35, '60': 0.55 }, outages: 1874, scope: 'all parks' },
      'Down 45 min · about 35 % back within 30 min, from 1,874 outages across all parks',
    ],
    [
      'hours, and odds of 0 said as a number',
      { minutes: 245, reopenWithin: { '15': 0, '30': 0, '60': 0.05 }, outages: 30 },
      'Down 4 h 5 min · about 0 % back within 30 min, from 30 outages',
    ],
    [
      'too few outages for odds: no number',
      { minutes: 75, reopenWithin: null, outages: 9, scope: 'all parks' },
      'Down 1 h 15 min · too few outages recorded to give odds',
    ],
    [
      'no odds read at all: no number',
      { minutes: 60, reopenWithin: null, outages: 0, scope: null },
      'Down 1 h · no odds of reopening yet',
    ],
  ])('%s', (_, change, text) => {
    expect(downText(down(change))).toBe(text);
  });

  it('never puts a figure in a line without odds', () => {
    const text = downText(down({ minutes: 30, reopenWithin: null, outages: 9, scope: 'park' }));
    expect(text.replace('Down 30 min', '')).not.toMatch(/\d/);
  });

  it.each([
    [0, '0 min'],
    [59, '59 min'],
    [60, '1 h'],
    [61, '1 h 1 min'],
  ])('says %i minutes as “%s”', (minutes, text) => {
    expect(durationText(minutes)).toBe(text);
  });
});

describe('a ride’s down as the widget reads it from a body', () => {
  it('takes a well-formed one', () => {
    expect(downOf({ down: down({}) })).toEqual(down({}));
    expect(downOf({ down: down({ reopenWithin: null, scope: null }) })).toEqual(
      down({ reopenWithin: null, scope: null }),
    );
  });

  it.each<[string, { down?: unknown } | undefined]>([
    ['no ride', undefined],
    ['a body from before `down` existed', {}],
    ['not down', { down: null }],
    ['minutes missing', { down: { ...down({}), minutes: undefined } }],
    ['odds without the half hour', { down: { ...down({}), reopenWithin: { '15': 0.3 } } }],
    ['odds as text', { down: { ...down({}), reopenWithin: { '15': 0.3, '30': '55 %', '60': 0.7 } } }],
  ])('is null for %s', (_, ride) => {
    expect(downOf(ride)).toBeNull();
  });

  it('reads an unknown scope as none, so it never claims a pool', () => {
    expect(downOf({ down: { ...down({}), scope: 'everywhere' } })?.scope).toBeNull();
  });
});
