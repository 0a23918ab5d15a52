import { RELAY_FRESH_FOR_MS } from '../platform/relay-cache.ts';
import {
  createRecord,
  deleteRecords,
  listKeys,
  readRecord,
  timeKey,
  timeOfKey,
  writeRecord,
} from '../platform/store.ts';
import { HOUR_MS } from '../platform/time-units.ts';
import { UpstreamClaimSchema } from './park-snapshot-schemas.ts';
import { type WaitTimes, WaitTimesSchema } from './wait-times-schemas.ts';

// A park's answer to GET /api/wait-times as stored for every instance (`answer/<park>`), and the
// claims that keep the upstream to one request per park per 5-minute period (docs/consistency.md).
// The recorder writes the answer each period; a visitor's refresh writes it only where no schedule
// runs (wait-times.ts).

const answerKey = (slug: string) => `answer/${slug}`;
const CLAIMS_PREFIX = 'claims/';
const claimKey = (slug: string, periodStart: number) => `${CLAIMS_PREFIX}${slug}/${timeKey(periodStart)}`;
/** Claims older than this are swept by the recorder: no instance still works in those periods. */
const CLAIMS_KEPT_MS = HOUR_MS;

/** The park's stored answer, exactly as served; null before the first fetch. */
export function readAnswer(slug: string): Promise<WaitTimes | null> {
  return readRecord('wait-times', answerKey(slug), WaitTimesSchema);
}

export function writeAnswer(slug: string, body: WaitTimes): Promise<void> {
  return writeRecord('wait-times', answerKey(slug), WaitTimesSchema, body);
}

/** The start of the 5-minute period (:00, :05, …) that `at` falls in. */
export const periodStartOf = (at: number) => Math.floor(at / RELAY_FRESH_FOR_MS) * RELAY_FRESH_FOR_MS;

/**
 * Claims the period for one upstream request of this park (a write-once key): false when the
 * recorder, another run or another instance already has it.
 */
export function claimPeriod(slug: string, periodStart: number): Promise<boolean> {
  return createRecord('wait-times', claimKey(slug, periodStart), UpstreamClaimSchema, { claimedAt: Date.now() });
}

/** Deletes the upstream claims of periods long past (one list, then the old keys). */
export async function sweepClaims(now: number): Promise<number> {
  const keys = await listKeys('wait-times', CLAIMS_PREFIX);
  const old = keys.filter((key) => now - timeOfKey(key.slice(key.lastIndexOf('/') + 1)) > CLAIMS_KEPT_MS);
  if (old.length > 0) await deleteRecords('wait-times', old);
  return old.length;
}
