import { describe, expect, it } from 'vitest';
import {
  expiredKeys,
  HISTORY_RETENTION_MS,
  MAX_SAMPLES_PER_PARK,
  pickEarlierSample,
  sampleOf,
} from '../../src/lib/wait-history.ts';

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;
const key = (at: number) => `history/epcot/${String(at).padStart(15, '0')}`;

describe('pickEarlierSample', () => {
  it.each([
    ['none at all', [], undefined],
    ['only samples too recent', [NOW - 5 * MINUTE, NOW - 19 * MINUTE], undefined],
    ['only samples too old', [NOW - 46 * MINUTE, NOW - 90 * MINUTE], undefined],
    ['one at exactly 20 minutes', [NOW - 20 * MINUTE], NOW - 20 * MINUTE],
    ['one at exactly 45 minutes', [NOW - 45 * MINUTE], NOW - 45 * MINUTE],
    ['the one closest to 30 minutes', [NOW - 22 * MINUTE, NOW - 31 * MINUTE, NOW - 40 * MINUTE], NOW - 31 * MINUTE],
  ] as const)('with %s picks the right sample', (_case, times, expected) => {
    expect(pickEarlierSample(times, NOW)).toBe(expected);
  });
});

describe('expiredKeys', () => {
  it('drops samples older than the retention window', () => {
    const keys = [key(NOW - HISTORY_RETENTION_MS - 1), key(NOW - HISTORY_RETENTION_MS), key(NOW)];
    expect(expiredKeys(keys, NOW)).toEqual([key(NOW - HISTORY_RETENTION_MS - 1)]);
  });

  it('keeps at most the newest MAX_SAMPLES_PER_PARK samples', () => {
    const keys = Array.from({ length: MAX_SAMPLES_PER_PARK + 7 }, (_, i) => key(NOW - i * 1000));
    const expired = expiredKeys(keys, NOW);
    expect(expired).toHaveLength(7);
    expect(expired).toEqual([...keys].sort().slice(0, 7));
  });
});

describe('sampleOf', () => {
  it('records open rides with their wait and closed rides as null', () => {
    const sample = sampleOf({
      fetchedAt: NOW,
      rides: [
        { id: 1, name: 'A', wait: 20, open: true },
        { id: 2, name: 'B', wait: 0, open: false },
      ],
    });
    expect(sample).toEqual({ at: NOW, waits: { '1': 20, '2': null } });
  });
});
