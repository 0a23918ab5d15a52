import { type HistorySample, HistorySampleSchema, type ParkSnapshot } from '../schemas/park-snapshot.ts';
import { deleteRecords, listKeys, readRecord, writeRecord } from './store.ts';

const MINUTE = 60_000;

/** The comparison sample for `trend` is the one closest to 30 minutes old within this window. */
export const TREND_WINDOW = { fromMs: 20 * MINUTE, targetMs: 30 * MINUTE, toMs: 45 * MINUTE } as const;
/** History older than this is of no use to trend and is deleted. */
export const HISTORY_RETENTION_MS = 3 * 60 * MINUTE;
/** Hard cap per park whatever the fetch rate (one sample per 5 minutes makes 36 in 3 hours). */
export const MAX_SAMPLES_PER_PARK = 60;

const prefixOf = (slug: string) => `history/${slug}/`;
// Zero-padded so that keys sort in time order.
const keyOf = (slug: string, at: number) => `${prefixOf(slug)}${String(at).padStart(15, '0')}`;
const timeOf = (key: string) => Number(key.slice(key.lastIndexOf('/') + 1));

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

/** The keys that fall out of the bounded history at time `at`. */
export function expiredKeys(keys: readonly string[], at: number): string[] {
  const sorted = [...keys].sort();
  const tooOld = sorted.filter((key) => at - timeOf(key) > HISTORY_RETENTION_MS);
  const kept = sorted.filter((key) => at - timeOf(key) <= HISTORY_RETENTION_MS);
  const excess = kept.slice(0, Math.max(0, kept.length - MAX_SAMPLES_PER_PARK));
  return [...tooOld, ...excess];
}

/**
 * Records a snapshot in the park's history and returns the sample about 30 minutes older.
 * Each sample is its own key, written once, so two instances writing at once never overwrite
 * or corrupt each other's data; pruning deletes are idempotent.
 */
export async function recordAndCompare(slug: string, snapshot: ParkSnapshot): Promise<HistorySample | null> {
  await writeRecord('wait-times', keyOf(slug, snapshot.fetchedAt), HistorySampleSchema, sampleOf(snapshot));
  const keys = await listKeys('wait-times', prefixOf(slug));
  const expired = expiredKeys(keys, snapshot.fetchedAt);
  if (expired.length > 0) await deleteRecords('wait-times', expired);
  return readEarlier(slug, snapshot.fetchedAt, keys);
}

/** The sample about 30 minutes before `at`, or null. */
export async function readEarlier(
  slug: string,
  at: number,
  knownKeys?: readonly string[],
): Promise<HistorySample | null> {
  const keys = knownKeys ?? (await listKeys('wait-times', prefixOf(slug)));
  const time = pickEarlierSample(keys.map(timeOf), at);
  if (time === undefined) return null;
  return readRecord('wait-times', keyOf(slug, time), HistorySampleSchema);
}
