import { describe, expect, it, vi } from 'vitest';
import { dayKindOf } from '../../../src/wait-times/forecast/day-kind.ts';
import {
  expiredTimes,
  HISTORY_RETENTION_MS,
  MAX_LEARN_PER_SAMPLE,
  MAX_SAMPLES_PER_PARK,
  memoryHistory,
  type ParkHistory,
  pickEarlierSample,
  readContext,
  recordSample,
  sampleOf,
  unlearnedTimes,
} from '../../../src/wait-times/forecast/park-history.ts';
import type { WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import type { HistorySample } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { EASTERN, eastern, loadSlice } from '../../support/touringplans.ts';

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;

/** The AK86 slice as the service would have sampled it: one park, one ride with id 1. */
const samples: HistorySample[] = loadSlice('AK86').map((posted) => ({ at: posted.at, waits: { 1: posted.wait } }));

/** Sum of all observation counts in a profile: how many pairs it has learned from (below the cap). */
function observations(profile: WaitProfile | null): number {
  let total = 0;
  for (const ride of Object.values(profile?.rides ?? {})) {
    for (const { bands } of Object.values(ride.buckets)) total += bands.low.count + bands.near.count + bands.high.count;
  }
  return total;
}

async function replay(history: ParkHistory, slice: readonly HistorySample[]): Promise<WaitProfile | null> {
  let profile: WaitProfile | null = null;
  for (const sample of slice) profile = (await recordSample(history, sample, EASTERN)).profile;
  return profile;
}

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

describe('expiredTimes', () => {
  it('drops samples older than the retention window', () => {
    const times = [NOW - HISTORY_RETENTION_MS - 1, NOW - HISTORY_RETENTION_MS, NOW];
    expect(expiredTimes(times, NOW)).toEqual([NOW - HISTORY_RETENTION_MS - 1]);
  });

  it('keeps at most the newest MAX_SAMPLES_PER_PARK samples', () => {
    const times = Array.from({ length: MAX_SAMPLES_PER_PARK + 7 }, (_, i) => NOW - i * 1000);
    expect(expiredTimes(times, NOW)).toEqual([...times].sort((a, b) => a - b).slice(0, 7));
  });
});

describe('unlearnedTimes', () => {
  it.each([
    ['a new profile', 0, [1, 2, 3], [1, 2, 3]],
    ['a profile that learned up to 2', 2, [1, 2, 3], [3]],
    ['a profile ahead of the history', 9, [1, 2, 3], []],
    [
      'a long gap',
      0,
      Array.from({ length: 40 }, (_, i) => i + 1),
      Array.from({ length: MAX_LEARN_PER_SAMPLE }, (_, i) => 41 - MAX_LEARN_PER_SAMPLE + i),
    ],
  ])('with %s', (_case, learnedThrough, times, expected) => {
    expect(unlearnedTimes(times, learnedThrough)).toEqual(expected);
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

describe('recordSample on real posted waits (TouringPlans.com, AK86)', () => {
  it('starts cold: no earlier sample, a profile that has learned nothing', async () => {
    const first = samples[0] as HistorySample;
    const { earlier, profile } = await recordSample(memoryHistory(), first, EASTERN);
    expect(earlier).toBeNull();
    expect(profile).toEqual({ version: 1, learnedThrough: first.at, rides: {} });
  });

  it('answers the sample about 30 minutes older for trend, and keeps the history bounded', async () => {
    const history = memoryHistory();
    const day = samples.slice(0, 120);
    let last = await recordSample(history, day[0] as HistorySample, EASTERN);
    for (const sample of day.slice(1)) last = await recordSample(history, sample, EASTERN);
    const at = (day.at(-1) as HistorySample).at;
    const times = await history.sampleTimes();
    expect(last.earlier?.at).toBe(pickEarlierSample(times, at));
    expect(times.every((time) => at - time <= HISTORY_RETENTION_MS)).toBe(true);
    expect(times.length).toBeLessThanOrEqual(MAX_SAMPLES_PER_PARK);
  });

  it('learns each sample once: recording a sample again changes nothing', async () => {
    const history = memoryHistory();
    const learned = await replay(history, samples.slice(0, 300));
    const again = await recordSample(history, samples[299] as HistorySample, EASTERN);
    expect(again.profile).toEqual(learned);
  });

  it('catches up after a lost profile write, ending where an undisturbed run ends', async () => {
    const undisturbed = await replay(memoryHistory(), samples.slice(0, 300));
    const flaky = memoryHistory();
    await replay(flaky, samples.slice(0, 290));
    // Another instance's write of the profile for sample 291 is lost: it wrote nothing.
    const losing: ParkHistory = { ...flaky, writeProfile: async () => {} };
    await recordSample(losing, samples[290] as HistorySample, EASTERN);
    const recovered = await replay(flaky, samples.slice(291, 300));
    expect(recovered).toEqual(undisturbed);
  });

  it('reads back the context a recording gave, without recording anything', async () => {
    const history = memoryHistory();
    await replay(history, samples.slice(0, 40));
    const next = samples[40] as HistorySample;
    const recorded = await recordSample(history, next, EASTERN);
    const times = await history.sampleTimes();
    expect(recorded.earlier).not.toBeNull();
    expect(await readContext(history, next.at)).toEqual(recorded);
    expect(await history.sampleTimes()).toEqual(times);
  });

  it('still answers trend and forecast when the profile cannot be stored', async () => {
    const history = memoryHistory();
    await replay(history, samples.slice(0, 40));
    const failing: ParkHistory = {
      ...history,
      writeProfile: async () => {
        throw new Error('Blobs down');
      },
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const context = await recordSample(failing, samples[40] as HistorySample, EASTERN);
    expect(context.earlier).not.toBeNull();
    expect(context.profile?.learnedThrough).toBe((samples[40] as HistorySample).at);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Could not store the wait history or profile'));
    warn.mockRestore();
  });

  it('never counts a sample twice when two instances record at once', async () => {
    const history = memoryHistory();
    await replay(history, samples.slice(0, 200));
    const before = observations(await history.readProfile());
    // Pairs of consecutive samples recorded concurrently, as two instances refreshing together.
    const next = samples.slice(200, 260);
    for (let i = 0; i < next.length; i += 2) {
      await Promise.all(next.slice(i, i + 2).map((sample) => recordSample(history, sample, EASTERN)));
    }
    const after = await history.readProfile();
    const learnable = next.filter((sample) => sample.waits[1] !== null).length;
    expect(observations(after) - before).toBeGreaterThan(learnable / 2);
    expect(observations(after) - before).toBeLessThanOrEqual(learnable);
    expect(after?.learnedThrough).toBe((next.at(-1) as HistorySample).at);
  });
});

describe('profiles by kind of day', () => {
  const day = (closing: string) => ({ opensAt: eastern('2019-02-17 09:00'), closesAt: eastern(closing) });

  it.each([
    ['hours unknown', null, 'usual'],
    ['a park closing at 18:00 (a party evening follows)', day('2019-02-17 18:00'), 'early-closing'],
    ['a park closing at 19:00', day('2019-02-17 19:00'), 'early-closing'],
    ['a park closing at 19:30', day('2019-02-17 19:30'), 'usual'],
    ['a park closing at 01:00 the next morning', day('2019-02-18 01:00'), 'usual'],
  ] as const)('with %s the day is %s', (_case, hours, kind) => {
    expect(dayKindOf(hours, EASTERN)).toBe(kind);
  });

  it('learns an early-closing day apart, starting from the usual profile, and leaves the usual one alone', async () => {
    const history = memoryHistory();
    await replay(history, samples.slice(0, 300));
    const usualBefore = await history.readProfile();
    const early = { hours: day('2019-02-17 18:00') };
    const first = samples[300] as HistorySample;
    const seeded = await recordSample(history, first, EASTERN, early);
    // Nothing of its own yet: it starts as the usual profile, and learns on from this sample.
    expect(observations(usualBefore)).toBeGreaterThan(0);
    expect(observations(seeded.profile)).toBeGreaterThanOrEqual(observations(usualBefore));
    expect(await history.readProfile('early-closing')).toEqual(seeded.profile);
    for (const sample of samples.slice(301, 400)) await recordSample(history, sample, EASTERN, early);
    const [usual, earlyClosing] = [await history.readProfile(), await history.readProfile('early-closing')];
    expect(usual).toEqual(usualBefore);
    expect(observations(earlyClosing)).toBeGreaterThan(observations(usualBefore));
    expect(earlyClosing?.learnedThrough).toBe((samples[399] as HistorySample).at);
    expect(await readContext(history, (samples[399] as HistorySample).at, 'early-closing')).toMatchObject({
      profile: earlyClosing,
    });
  });
});
