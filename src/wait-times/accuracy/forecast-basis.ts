import { readRecord, writeRecord } from '../../platform/store.ts';
import { HOUR_MS } from '../../platform/time-units.ts';
import { type BasisRecord, BasisRecordSchema, type ForecastBasis } from './accuracy-schemas.ts';

/**
 * Never worse than no change, where it is measured (docs/accuracy.md): per park, whether the
 * 30-minute `forecast` serves the model or persistence (the wait now). The grading job decides
 * (basis-update.ts) and writes `basis/<slug>`; the recorder and a visitor's refresh read it here.
 */

/** Graded forecasts a 28-day row needs before the model may be set aside. */
export const SWITCH_MIN_GRADED = 300;

export const BASIS_PREFIX = 'basis/';
export const basisKeyOf = (slug: string) => `${BASIS_PREFIX}${slug}`;

/** The figures of a 28-day row the rule reads. */
export type BasisRow = { n: number; skillLow: number | null; skillHigh: number | null };

/**
 * The hysteresis rule: the model is set aside when its 95 % interval lies wholly below 0
 * (`skillHigh` < 0) with at least 300 graded forecasts, and comes back only when its interval lies
 * wholly above 0 (`skillLow` > 0). In between, or without an interval, the basis stays as it is.
 */
export function nextBasis(current: ForecastBasis, { n, skillLow, skillHigh }: BasisRow): ForecastBasis {
  if (current === 'model' && n >= SWITCH_MIN_GRADED && skillHigh !== null && skillHigh < 0) return 'persistence';
  if (current === 'persistence' && skillLow !== null && skillLow > 0) return 'model';
  return current;
}

/** How long a read record is kept in memory: it changes at most once per grading run (hourly). */
export const BASIS_FRESH_FOR_MS = HOUR_MS;
const memory = new Map<string, { readAt: number; record: BasisRecord | null }>();

/** The park's stored basis record (null: never decided, the model), read from Blobs. */
export function readBasisRecord(slug: string): Promise<BasisRecord | null> {
  return readRecord('wait-times', basisKeyOf(slug), BasisRecordSchema);
}

/** Writes the park's basis record, and keeps it in this instance's memory. */
export async function writeBasisRecord(record: BasisRecord): Promise<void> {
  await writeRecord('wait-times', basisKeyOf(record.park), BasisRecordSchema, record);
  memory.set(record.park, { readAt: Date.now(), record });
}

/**
 * What the park's 30-minute `forecast` serves now: the stored record's basis, `model` without one.
 * Read once an hour per instance; a failed read throws (the caller serves the model).
 */
export async function servedBasisOf(slug: string): Promise<ForecastBasis> {
  const now = Date.now();
  const kept = memory.get(slug);
  if (kept && now - kept.readAt >= 0 && now - kept.readAt < BASIS_FRESH_FOR_MS)
    return kept.record?.horizon30 ?? 'model';
  const record = await readBasisRecord(slug);
  memory.set(slug, { readAt: now, record });
  return record?.horizon30 ?? 'model';
}

/** Forgets the records kept in memory (tests start each case cold). */
export function resetBasisMemory(): void {
  memory.clear();
}
