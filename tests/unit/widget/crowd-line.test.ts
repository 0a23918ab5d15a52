import { describe, expect, it } from 'vitest';
import type { CrowdLevel } from '../../../src/wait-times/day/history-schemas.ts';
import { crowdText } from '../../../src/widget/crowd-line.ts';

const basis = { comparisons: 40, rides: 8, since: Date.parse('2026-07-04T09:00:00Z') };

describe('the crowd level in a line of the parks index', () => {
  it.each<{ crowd: CrowdLevel | null; text: string }>([
    { crowd: { level: 'busier', ratio: 1.18, ...basis }, text: 'Busier than usual today (+18 %)' },
    { crowd: { level: 'quieter', ratio: 0.8, ...basis }, text: 'Quieter than usual today (−20 %)' },
    // Within the bounds it is a usual day, whatever the small difference.
    { crowd: { level: 'usual', ratio: 1.1, ...basis }, text: 'A usual day so far' },
    // Too few readings to compare: no level, never a word from noise.
    {
      crowd: { level: null, ratio: null, comparisons: 4, rides: 2, since: null },
      text: 'Crowd: not enough history yet today',
    },
    { crowd: null, text: 'Crowd: not enough history yet today' },
  ])('reads $crowd.level as "$text"', ({ crowd, text }) => {
    expect(crowdText(crowd)).toBe(text);
  });
});
