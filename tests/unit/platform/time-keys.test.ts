import { describe, expect, it } from 'vitest';
import { isTimeKeyed, timeKey, timeOfKey } from '../../../src/platform/store.ts';

describe('time keys', () => {
  it.each([
    [0, '000000000000000'],
    [1_763_000_000_000, '001763000000000'],
    [999_999_999_999_999, '999999999999999'],
  ])('writes %d as %s, and reads it back', (at, key) => {
    expect(timeKey(at)).toBe(key);
    expect(timeOfKey(`${key}-0b5c8a1e`)).toBe(at);
  });

  it('sorts keys in time order across a change in the number of digits', () => {
    const times = [9_999_999_999_999, 10_000_000_000_000, 5];
    expect(times.map(timeKey).sort().map(timeOfKey)).toEqual([5, 9_999_999_999_999, 10_000_000_000_000]);
  });

  it.each([
    ['001763000000000', true],
    ['001763000000000-0b5c8a1e-3f4d-4c2b-9a7e-5d6f7a8b9c0d', true],
    ['00176300000000-short', false],
    ['0017630000000000', false],
    ['zzz-not-a-pin', false],
    ['.k7cc9voyif', false],
  ])('tells a time-keyed segment %j: %s', (segment, keyed) => {
    expect(isTimeKeyed(segment)).toBe(keyed);
  });
});
