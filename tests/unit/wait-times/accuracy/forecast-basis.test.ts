import { describe, expect, it } from 'vitest';
import type { ForecastBasis } from '../../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { type BasisRow, nextBasis, SWITCH_MIN_GRADED } from '../../../../src/wait-times/accuracy/forecast-basis.ts';

/** The hysteresis rule of "never worse than no change" (docs/accuracy.md#never-worse-than-no-change). */
describe('nextBasis', () => {
  const cases: [string, ForecastBasis, BasisRow, ForecastBasis][] = [
    [
      'the model measured worse with enough graded: persistence',
      'model',
      { n: 300, skillLow: -0.4, skillHigh: -0.1 },
      'persistence',
    ],
    [
      'worse, but under 300 graded: the model stays',
      'model',
      { n: SWITCH_MIN_GRADED - 1, skillLow: -0.4, skillHigh: -0.1 },
      'model',
    ],
    ['an interval touching 0: the model stays', 'model', { n: 5000, skillLow: -0.3, skillHigh: 0 }, 'model'],
    ['an interval spanning 0: the model stays', 'model', { n: 5000, skillLow: -0.2, skillHigh: 0.1 }, 'model'],
    [
      'no interval (one day, or under 30): the model stays',
      'model',
      { n: 400, skillLow: null, skillHigh: null },
      'model',
    ],
    ['the model measured better: the model stays', 'model', { n: 5000, skillLow: 0.05, skillHigh: 0.2 }, 'model'],
    [
      'persistence, the model now better: the model is back',
      'persistence',
      { n: 500, skillLow: 0.01, skillHigh: 0.2 },
      'model',
    ],
    [
      'persistence, better with few graded: the model is back (skillLow needs 30 and two days)',
      'persistence',
      { n: 40, skillLow: 0.1, skillHigh: 0.3 },
      'model',
    ],
    [
      'persistence, skillLow exactly 0: persistence stays',
      'persistence',
      { n: 500, skillLow: 0, skillHigh: 0.2 },
      'persistence',
    ],
    [
      'persistence, an interval spanning 0: persistence stays',
      'persistence',
      { n: 500, skillLow: -0.1, skillHigh: 0.1 },
      'persistence',
    ],
    [
      'persistence, still worse: persistence stays',
      'persistence',
      { n: 500, skillLow: -0.5, skillHigh: -0.2 },
      'persistence',
    ],
    [
      'persistence, nothing graded in the window: persistence stays',
      'persistence',
      { n: 0, skillLow: null, skillHigh: null },
      'persistence',
    ],
  ];
  it.each(cases)('%s', (_, current, row, expected) => {
    expect(nextBasis(current, row)).toBe(expected);
  });
});
