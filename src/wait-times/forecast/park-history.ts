import { finishLater } from '../../platform/http.ts';
import { deleteRecords, listKeys, readRecord, timeKey, writeRecord } from '../../platform/store.ts';
import { HOUR_MS, MINUTE_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { minuteOfDay } from '../local-time.ts';
import { type HistorySample, HistorySampleSchema, type ParkSnapshot } from '../park-snapshot-schemas.ts';
import { type DayKind, dayKindOf } from './day-kind.ts';
import { learnClosings } from './ride-closing.ts';
import { boundProfile, emptyProfile, updateProfile } from './wait-profile.ts';
import {
  decodeWaitProfile,
  encodeWaitProfile,
  StoredWaitProfileSchema,
  type WaitProfile,
} from './wait-profile-schemas.ts';

/** The comparison sample for `trend` is the one closest to 30 minutes old within this window. */
const TREND_WINDOW = { fromMs: 20 * MINUTE_MS, targetMs: 30 * MINUTE_MS, toMs: 45 * MINUTE_MS } as const;
/** History older than this is of no use to trend or learning and is deleted. */
export const HISTORY_RETENTION_MS = 3 * HOUR_MS;
/** Hard cap per park whatever the fetch rate (one sample per 5 minutes makes 36 in 3 hours). */
export const MAX_SAMPLES_PER_PARK = 60;
/** At most this many not-yet-learned samples are learned in one go (catching up after a gap). */
export const MAX_LEARN_PER_SAMPLE = 12;

/**
 * One park's history samples and its forecaster profiles, one per kind of day (day-kind.ts; the
 * usual one when not named): Blobs in the service, memory in the backtest.
 */
export interface ParkHistory {
  writeSample(sample: HistorySample): Promise<void>;
  /** Times of the stored samples, ascending. */
  sampleTimes(): Promise<number[]>;
  /** The samples at these times; missing ones are left out. */
  readSamples(times: readonly number[]): Promise<HistorySample[]>;
  deleteSamples(times: readonly number[]): Promise<void>;
  readProfile(kind?: DayKind): Promise<WaitProfile | null>;
  writeProfile(profile: WaitProfile, kind?: DayKind): Promise<void>;
}

/**
 * The profile for a kind of day: until it has learned from a day of its own it is the usual one,
 * so a park's first early-closing day starts from what its other days taught (one more read, once).
 */
export async function readDayProfile(history: ParkHistory, kind: DayKind): Promise<WaitProfile | null> {
  const own = await history.readProfile(kind);
  return own ?? (kind === 'usual' ? null : history.readProfile('usual'));
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
  return [...tooOld, ...kept.slice(0, Math.max(0, kept.length - MAX_SAMPLES_PER_PARK))];
}

/** The samples a profile has not learned from yet (the newest `MAX_LEARN_PER_SAMPLE`), ascending. */
export function unlearnedTimes(times: readonly number[], learnedThrough: number): number[] {
  return times
    .filter((time) => time > learnedThrough)
    .sort((a, b) => a - b)
    .slice(-MAX_LEARN_PER_SAMPLE);
}

/**
 * Records a sample, prunes the history, learns from every sample the profile of the day's kind has
 * not learned yet (given the park's `hours` today: its kind, day-kind.ts, and when each ride closes
 * against the park, ride-closing.ts), and returns the sample about 30 minutes older plus that
 * profile. The recorder alone calls it (recorder/park-records.ts), one run per period; two runs
 * overlapping still cannot count a sample twice: each profile write is a base plus the samples
 * after its `learnedThrough`, in order, and the last writer wins (docs/consistency.md).
 */
export async function recordSample(
  history: ParkHistory,
  sample: HistorySample,
  timeZone: string,
  { hours = null }: { hours?: DayHours | null } = {},
): Promise<HistoryContext> {
  // Written beside the reads, so that an instance recording at the same moment may learn from it.
  const written = history.writeSample(sample);
  written.catch(() => {}); // reported with the housekeeping below
  const kind = dayKindOf(hours, timeZone);
  const [listed, stored] = await Promise.all([history.sampleTimes(), readDayProfile(history, kind)]);
  const times = [...new Set([...listed, sample.at])].sort((a, b) => a - b);
  const expired = new Set(expiredTimes(times, sample.at));
  const kept = times.filter((time) => !expired.has(time));
  const pending = unlearnedTimes(kept, (stored ?? emptyProfile()).learnedThrough);
  const pairs = pending.flatMap((time) => {
    const partner = pickEarlierSample(kept, time);
    return partner === undefined ? [] : [[time, partner] as const];
  });
  const earlierTime = pickEarlierSample(kept, sample.at);
  const wanted = new Set([...pairs.flat(), ...(earlierTime === undefined ? [] : [earlierTime])]);
  wanted.delete(sample.at);
  const byTime = new Map((await history.readSamples([...wanted])).map((loaded) => [loaded.at, loaded]));
  byTime.set(sample.at, sample);

  let profile = stored ?? emptyProfile();
  for (const [time, partner] of pairs) {
    const [now, earlier] = [byTime.get(time), byTime.get(partner)];
    if (now && earlier) profile = updateProfile(profile, now, earlier, minuteOfDay(earlier.at, timeZone));
  }
  const newest = pending.at(-1);
  if (newest !== undefined) {
    profile = learnClosings(profile, sample, hours);
    profile = boundProfile({ ...profile, learnedThrough: newest }, sample.at);
  }
  // The answer stands without these: a lost sample costs a later trend its partner, a lost profile
  // is learned again, expired samples go with the next poll.
  const housekeeping = () =>
    Promise.all([
      written,
      newest !== undefined ? history.writeProfile(profile, kind) : undefined,
      expired.size > 0 ? history.deleteSamples([...expired]) : undefined,
    ]);
  await finishLater('store the wait history or profile', housekeeping);
  return { earlier: (earlierTime !== undefined && byTime.get(earlierTime)) || null, profile };
}

/** The sample about 30 minutes before `at` and the profile of the day's kind, without recording anything. */
export async function readContext(history: ParkHistory, at: number, kind: DayKind = 'usual'): Promise<HistoryContext> {
  const [times, profile] = await Promise.all([history.sampleTimes(), readDayProfile(history, kind)]);
  const time = pickEarlierSample(times, at);
  const [earlier] = time === undefined ? [] : await history.readSamples([time]);
  return { earlier: earlier ?? null, profile };
}

const prefixOf = (slug: string) => `history/${slug}/`;
const keyOf = (slug: string, at: number) => `${prefixOf(slug)}${timeKey(at)}`;
const profileKey = (slug: string, kind: DayKind = 'usual') =>
  kind === 'usual' ? `profile/${slug}` : `profile/${kind}/${slug}`;

/** A park's history in the `wait-times` Blobs store: one key per sample, one per kind of day's profile. */
export function blobsHistory(slug: string): ParkHistory {
  return {
    writeSample: (sample) => writeRecord('wait-times', keyOf(slug, sample.at), HistorySampleSchema, sample),
    sampleTimes: async () =>
      (await listKeys('wait-times', prefixOf(slug))).map((key) => Number(key.slice(prefixOf(slug).length))),
    readSamples: async (times) =>
      (await Promise.all(times.map((time) => readRecord('wait-times', keyOf(slug, time), HistorySampleSchema)))).filter(
        (sample) => sample !== null,
      ),
    deleteSamples: (times) =>
      deleteRecords(
        'wait-times',
        times.map((time) => keyOf(slug, time)),
      ),
    readProfile: async (kind) => {
      const stored = await readRecord('wait-times', profileKey(slug, kind), StoredWaitProfileSchema);
      return stored && decodeWaitProfile(stored);
    },
    writeProfile: (profile, kind) =>
      writeRecord('wait-times', profileKey(slug, kind), StoredWaitProfileSchema, encodeWaitProfile(profile)),
  };
}

/**
 * A park's history in memory (backtest, tests), checked and kept as JSON as `writeRecord` does, so
 * what is read back is what Blobs would hold.
 */
export function memoryHistory(): ParkHistory {
  const samples = new Map<number, string>();
  const profiles = new Map<DayKind, string>();
  return {
    writeSample: async (sample) => {
      samples.set(sample.at, JSON.stringify(HistorySampleSchema.parse(sample)));
    },
    sampleTimes: async () => [...samples.keys()].sort((a, b) => a - b),
    readSamples: async (times) => times.flatMap((time) => JSON.parse(samples.get(time) ?? 'null') ?? []),
    deleteSamples: async (times) => {
      for (const time of times) samples.delete(time);
    },
    readProfile: async (kind = 'usual') => {
      const stored = profiles.get(kind);
      return stored === undefined ? null : decodeWaitProfile(JSON.parse(stored));
    },
    writeProfile: async (next, kind = 'usual') => {
      profiles.set(kind, JSON.stringify(StoredWaitProfileSchema.parse(encodeWaitProfile(next))));
    },
  };
}

const GRID_MS = 5 * MINUTE_MS;
const STILL_POSTED_MS = 15 * MINUTE_MS;

/**
 * The park as the service would have sampled it if asked every 5 minutes around the clock: each
 * ride's last posted wait if at most 15 minutes old, else closed (null), as queue-times lists a
 * closed ride; so the profile learns when rides usually open and close. TouringPlans' rows come
 * every ~7 minutes, ride by ride, and stop when the ride closes.
 */
export function gridSamples(
  rides: readonly { id: string; samples: readonly { at: number; wait: number | null }[] }[],
): HistorySample[] {
  const first = Math.min(...rides.map((ride) => ride.samples[0]?.at ?? Number.POSITIVE_INFINITY));
  const last = Math.max(...rides.map((ride) => ride.samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY));
  const cursors = rides.map(() => 0);
  const samples: HistorySample[] = [];
  for (let at = Math.ceil(first / GRID_MS) * GRID_MS; at <= last; at += GRID_MS) {
    const waits: Record<string, number | null> = {};
    rides.forEach(({ id, samples: rows }, index) => {
      let cursor = cursors[index] ?? 0;
      while ((rows[cursor + 1]?.at ?? Number.POSITIVE_INFINITY) <= at) cursor++;
      cursors[index] = cursor;
      const row = rows[cursor];
      waits[id] = row && row.at <= at && at - row.at <= STILL_POSTED_MS ? row.wait : null;
    });
    samples.push({ at, waits });
  }
  return samples;
}
