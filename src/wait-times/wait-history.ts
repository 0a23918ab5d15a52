import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { deleteRecords, listKeys, readRecord, timeKey, writeRecord } from '../platform/store.ts';
import { boundProfile, emptyProfile, updateProfile } from './forecast/wait-profile.ts';
import { type WaitProfile, WaitProfileSchema } from './forecast/wait-profile-schemas.ts';
import { minuteOfDay } from './local-time.ts';
import { type HistorySample, HistorySampleSchema, type ParkSnapshot } from './park-snapshot-schemas.ts';

const MINUTE = 60_000;

/** The comparison sample for `trend` is the one closest to 30 minutes old within this window. */
export const TREND_WINDOW = { fromMs: 20 * MINUTE, targetMs: 30 * MINUTE, toMs: 45 * MINUTE } as const;
/** History older than this is of no use to trend or learning and is deleted. */
export const HISTORY_RETENTION_MS = 3 * 60 * MINUTE;
/** Hard cap per park whatever the fetch rate (one sample per 5 minutes makes 36 in 3 hours). */
export const MAX_SAMPLES_PER_PARK = 60;
/** At most this many not-yet-learned samples are learned in one go (catching up after a gap). */
export const MAX_LEARN_PER_SAMPLE = 12;

/**
 * Where one park's history samples and forecaster profile live: Netlify Blobs in the service
 * (`blobsHistory`), memory in the backtest and tests (`memoryHistory`). Everything above this
 * interface is the same code in both.
 */
export interface ParkHistory {
  writeSample(sample: HistorySample): Promise<void>;
  /** Times of the stored samples, ascending. */
  sampleTimes(): Promise<number[]>;
  /** The samples at these times; missing ones are left out. */
  readSamples(times: readonly number[]): Promise<HistorySample[]>;
  deleteSamples(times: readonly number[]): Promise<void>;
  readProfile(): Promise<WaitProfile | null>;
  writeProfile(profile: WaitProfile): Promise<void>;
}

/** What a new sample brings: the sample about 30 minutes older (for trend) and the profile. */
export interface HistoryContext {
  earlier: HistorySample | null;
  profile: WaitProfile | null;
}

/** A history sample of a snapshot: each ride's wait, or null when it was closed. */
export function sampleOf(snapshot: ParkSnapshot): HistorySample {
  return {
    at: snapshot.fetchedAt,
    waits: Object.fromEntries(snapshot.rides.map((ride) => [String(ride.id), ride.open ? ride.wait : null])),
  };
}

/** The time of the sample that best serves as "about 30 minutes before `at`", if any. */
export function pickEarlierSample(times: readonly number[], at: number): number | undefined {
  let best: number | undefined;
  for (const time of times) {
    const age = at - time;
    if (age < TREND_WINDOW.fromMs || age > TREND_WINDOW.toMs) continue;
    if (best === undefined || Math.abs(age - TREND_WINDOW.targetMs) < Math.abs(at - best - TREND_WINDOW.targetMs)) {
      best = time;
    }
  }
  return best;
}

/** The sample times that fall out of the bounded history at time `at`. */
export function expiredTimes(times: readonly number[], at: number): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  const tooOld = sorted.filter((time) => at - time > HISTORY_RETENTION_MS);
  const kept = sorted.filter((time) => at - time <= HISTORY_RETENTION_MS);
  const excess = kept.slice(0, Math.max(0, kept.length - MAX_SAMPLES_PER_PARK));
  return [...tooOld, ...excess];
}

/** The samples a profile has not learned from yet (the newest `MAX_LEARN_PER_SAMPLE`), ascending. */
export function unlearnedTimes(times: readonly number[], learnedThrough: number): number[] {
  const pending = times.filter((time) => time > learnedThrough).sort((a, b) => a - b);
  return pending.slice(-MAX_LEARN_PER_SAMPLE);
}

/**
 * Records a sample, prunes the history, learns from every sample the park's profile has not
 * learned yet, and returns the sample about 30 minutes older plus the updated profile.
 *
 * What the answer does not need (writing the profile, deleting expired samples) is finished after
 * the answer with `later`; its failure, or the sample's, is logged.
 *
 * Concurrency (two instances refreshing one park at once): samples are one record each, written
 * once, so they never clash. The profile is a single record that each instance reads, extends
 * and writes whole without a conditional write (a retry loop per refresh would cost more than a
 * lost observation; docs/consistency.md), so the last writer wins. That is harmless by construction: a profile is always "some base profile plus the
 * samples newer than its `learnedThrough`, in time order", so whichever write survives has
 * applied each sample at most once. A lost write only means its samples are learned by the next
 * refresh (they are still in the history) or, if an instance already moved `learnedThrough` past
 * them, never: a few observations fewer in a running median, no corruption, no double counting.
 */
export async function recordSample(
  history: ParkHistory,
  sample: HistorySample,
  timeZone: string,
  later?: AfterAnswer,
): Promise<HistoryContext> {
  // Written beside the reads, so that an instance recording at the same moment may see it and
  // learn from it before moving `learnedThrough` past it.
  const written = history.writeSample(sample);
  written.catch(() => {}); // reported with the housekeeping below
  const [listed, stored] = await Promise.all([history.sampleTimes(), history.readProfile()]);
  const times = [...new Set([...listed, sample.at])].sort((a, b) => a - b);
  const expired = new Set(expiredTimes(times, sample.at));
  const kept = times.filter((time) => !expired.has(time));
  const base = stored ?? emptyProfile();
  const pending = unlearnedTimes(kept, base.learnedThrough);
  const pairs = pending.flatMap((time) => {
    const partner = pickEarlierSample(kept, time);
    return partner === undefined ? [] : [[time, partner] as const];
  });
  const earlierTime = pickEarlierSample(kept, sample.at);
  const wanted = new Set([...pairs.flat(), ...(earlierTime === undefined ? [] : [earlierTime])]);
  wanted.delete(sample.at);
  const loaded = await history.readSamples([...wanted]);
  const byTime = new Map(loaded.map((loadedSample) => [loadedSample.at, loadedSample]));
  byTime.set(sample.at, sample);

  let profile = base;
  for (const [time, partner] of pairs) {
    const now = byTime.get(time);
    const earlier = byTime.get(partner);
    if (now && earlier) profile = updateProfile(profile, now, earlier, minuteOfDay(earlier.at, timeZone));
  }
  const newest = pending.at(-1);
  if (newest !== undefined) profile = boundProfile({ ...profile, learnedThrough: newest }, sample.at);
  // The answer stands without these: a lost sample costs a later trend its partner, a lost profile
  // write is learned again (see above), expired samples are deleted by the next refresh.
  const housekeeping = () =>
    Promise.all([
      written,
      newest !== undefined ? history.writeProfile(profile) : undefined,
      expired.size > 0 ? history.deleteSamples([...expired]) : undefined,
    ]);
  await finishLater('store the wait history or profile', housekeeping, later);
  const earlier = earlierTime === undefined ? null : (byTime.get(earlierTime) ?? null);
  return { earlier, profile };
}

/** The sample about 30 minutes before `at` and the profile, without recording anything. */
export async function readContext(history: ParkHistory, at: number): Promise<HistoryContext> {
  const [times, profile] = await Promise.all([history.sampleTimes(), history.readProfile()]);
  const time = pickEarlierSample(times, at);
  const [earlier] = time === undefined ? [] : await history.readSamples([time]);
  return { earlier: earlier ?? null, profile };
}

const prefixOf = (slug: string) => `history/${slug}/`;
const keyOf = (slug: string, at: number) => `${prefixOf(slug)}${timeKey(at)}`;
const timeOf = (key: string) => Number(key.slice(key.lastIndexOf('/') + 1));
const profileKey = (slug: string) => `profile/${slug}`;

/** A park's history in the `wait-times` Blobs store: one key per sample, one for the profile. */
export function blobsHistory(slug: string): ParkHistory {
  return {
    writeSample: (sample) => writeRecord('wait-times', keyOf(slug, sample.at), HistorySampleSchema, sample),
    sampleTimes: async () => (await listKeys('wait-times', prefixOf(slug))).map(timeOf).sort((a, b) => a - b),
    readSamples: async (times) => {
      const samples = await Promise.all(
        times.map((time) => readRecord('wait-times', keyOf(slug, time), HistorySampleSchema)),
      );
      return samples.filter((sample) => sample !== null);
    },
    deleteSamples: (times) =>
      deleteRecords(
        'wait-times',
        times.map((time) => keyOf(slug, time)),
      ),
    readProfile: () => readRecord('wait-times', profileKey(slug), WaitProfileSchema),
    writeProfile: (profile) => writeRecord('wait-times', profileKey(slug), WaitProfileSchema, profile),
  };
}

/**
 * A park's history in memory, for the backtest and tests. Records are checked against their
 * schemas and stored as JSON, as `writeRecord` does, so what is read back is what Blobs would
 * hold (reads skip the second schema check: nothing else writes here).
 */
export function memoryHistory(): ParkHistory & { profileBytes(): number } {
  const samples = new Map<number, string>();
  let profile: string | null = null;
  return {
    writeSample: async (sample) => {
      samples.set(sample.at, JSON.stringify(HistorySampleSchema.parse(sample)));
    },
    sampleTimes: async () => [...samples.keys()].sort((a, b) => a - b),
    readSamples: async (times) =>
      times.flatMap((time) => {
        const json = samples.get(time);
        return json === undefined ? [] : [JSON.parse(json) as HistorySample];
      }),
    deleteSamples: async (times) => {
      for (const time of times) samples.delete(time);
    },
    readProfile: async () => (profile === null ? null : (JSON.parse(profile) as WaitProfile)),
    writeProfile: async (next) => {
      profile = JSON.stringify(WaitProfileSchema.parse(next));
    },
    profileBytes: () => (profile === null ? 0 : Buffer.byteLength(profile)),
  };
}
