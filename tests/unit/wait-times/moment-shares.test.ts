import { describe, expect, it } from 'vitest';
import {
  type Duration,
  type MomentShare,
  momentShareOf,
  PRIOR_OUTAGES,
  phaseOf,
  shareOf,
  shrunk,
} from '../../../src/wait-times/outages/moment-shares.ts';

// The moments the reopen odds count: every 5 minutes from an outage's second closed sample, each
// followed or not by a reopening within 15, 30 and 60 minutes (the backtest's outcome).

const ended = (minutes: number, more: Partial<Duration> = {}): Duration => ({ minutes, reopened: true, ...more });
const closing = (minutes: number): Duration => ({ minutes, reopened: false });
const lost = (minutes: number): Duration => ({ minutes, reopened: false, lost: true });

describe('momentShareOf: down moments and their outcomes', () => {
  it.each([
    // Moment at 10 only; back at 30: not within 15 (by 25), within 30 and 60.
    { name: 'a reopened outage', durations: [ended(30)], span: [5, 15], seen: [1, 1, 1], reopened: [0, 1, 1] },
    // Seen at 15, 20, 25; back at 30: within 15 from 15 on, all within 30 and 60.
    { name: 'its later moments', durations: [ended(30)], span: [15, 30], seen: [3, 3, 3], reopened: [3, 3, 3] },
    // Still down at the closing (30): not back for anyone, every moment up to its last closed sample counts.
    { name: 'down at the closing', durations: [closing(30)], span: [15, 60], seen: [4, 4, 4], reopened: [0, 0, 0] },
    // Lost in a gap at 30: only the moment at 15 is known at 15 minutes (still down at 30); the rest left out.
    { name: 'lost in a gap', durations: [lost(30)], span: [15, 60], seen: [1, 0, 0], reopened: [0, 0, 0] },
    // A 10-minute outage is seen down at no moment from its second closed sample (10 is its first open one).
    { name: 'too short to be seen', durations: [ended(10)], span: [5, 15], seen: [0, 0, 0], reopened: [0, 0, 0] },
    {
      name: 'bad minutes',
      durations: [ended(Number.NaN), ended(-5)],
      span: [5, 15],
      seen: [0, 0, 0],
      reopened: [0, 0, 0],
    },
  ])('$name', ({ durations, span, seen, reopened }) => {
    const share = momentShareOf(durations, span as [number, number], 5);
    expect([share.seen[15], share.seen[30], share.seen[60]]).toEqual(seen);
    expect([share.reopened[15], share.reopened[30], share.reopened[60]]).toEqual(reopened);
  });

  it('counts the outages a cell rests on, and takes the sampling step', () => {
    expect(momentShareOf([ended(30), ended(40), ended(10)], [5, 15], 5).outages).toBe(2);
    // Every 7 minutes: moments at 14, 21 and 28 of a 30-minute outage.
    expect(momentShareOf([ended(30)], [5, 60], 7).seen[15]).toBe(3);
  });

  it('keeps the moments in one part of the day', () => {
    // Started 70 minutes after the opening, 500 before the closing: down at 15 (85 after opening) is
    // in the opening phase; at 20 and 25 (90 and 95 after) in the day.
    const outage = ended(60, { sinceOpening: 70, toClosing: 500 });
    expect(momentShareOf([outage], [15, 30], 5, 'opening').seen[15]).toBe(1);
    expect(momentShareOf([outage], [15, 30], 5, 'day').seen[15]).toBe(2);
    expect(momentShareOf([outage], [15, 30], 5, 'closing').outages).toBe(0);
    // Hours unknown: in no phase.
    expect(momentShareOf([ended(60)], [15, 30], 5, 'day').outages).toBe(0);
  });
});

describe('phaseOf: the part of the day', () => {
  it.each([
    { since: 0, to: 600, phase: 'opening' },
    { since: 89, to: 600, phase: 'opening' },
    { since: 90, to: 600, phase: 'day' },
    { since: 300, to: 120, phase: 'day' },
    { since: 300, to: 119, phase: 'closing' },
    // A short day: the opening wins.
    { since: 30, to: 60, phase: 'opening' },
    { since: null, to: 60, phase: null },
    { since: 300, to: null, phase: null },
  ])('$since minutes after opening, $to before closing: $phase', ({ since, to, phase }) => {
    expect(phaseOf(since, to)).toBe(phase);
  });
});

describe('shrunk: a small cell says little', () => {
  const share = (outages: number, seen: number, reopened: number): MomentShare => ({
    outages,
    seen: { 15: seen, 30: seen, 60: seen },
    reopened: { 15: reopened, 30: reopened, 60: reopened },
  });
  it.each([
    // As many outages as the prior's weight: halfway between its share (0.8) and the prior (0.2).
    { cell: share(PRIOR_OUTAGES, 10, 8), prior: 0.2, expected: 0.5 },
    { cell: share(3 * PRIOR_OUTAGES, 10, 8), prior: 0.2, expected: 0.65 },
    { cell: share(0, 0, 0), prior: 0.2, expected: 0.2 },
    { cell: share(5, 10, 8), prior: null, expected: 0.8 },
    { cell: share(0, 0, 0), prior: null, expected: null },
  ])('$cell.outages outages, prior $prior: $expected', ({ cell, prior, expected }) => {
    const value = shrunk(cell, 15, prior);
    if (expected === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(expected, 10);
  });

  it('pools cells by their moments', () => {
    expect(shareOf([share(1, 3, 1), share(1, 1, 1)], 30)).toBeCloseTo(0.5, 10);
    expect(shareOf([], 30)).toBeNull();
  });
});
