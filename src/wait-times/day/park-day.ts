import { MINUTE_MS } from '../../platform/time-units.ts';
import type { HistorySample } from '../park-snapshot-schemas.ts';
import { type DayRecord, MAX_DAY_RIDES, MAX_DAY_SAMPLES } from './history-schemas.ts';

/**
 * A park's local day as a grow-only set of samples keyed by 5-minute slot of UTC time (of two in
 * one slot the earlier stays): merging in any order, or twice, gives the same record, which makes
 * repairing a lost write by merging again safe (day-store.ts).
 */

export const SLOT_MS = 5 * MINUTE_MS;

const slotOf = (at: number): number => Math.floor(at / SLOT_MS);

export const emptyDay = (date: string): DayRecord => ({ version: 1, date, times: [], rides: {} });

/** Whether adding a sample taken at `at` would change the day (no sample at or before it in its slot). */
export function wouldAdd(day: DayRecord, at: number): boolean {
  return !day.times.some((time) => slotOf(time) === slotOf(at) && time <= at);
}

/**
 * The day with these samples merged in (samples outside the day's slots are the caller's to
 * filter). `names` gives ride names by id; a ride keeps the name it had when it has none here.
 * Bounded: at most `MAX_DAY_SAMPLES` slots and `MAX_DAY_RIDES` rides (the most-sampled stay).
 */
export function addSamples(
  day: DayRecord,
  samples: readonly HistorySample[],
  names: Readonly<Record<string, string>>,
): DayRecord {
  const stored = day.times.map((at, index) => ({
    at,
    waits: Object.fromEntries(Object.entries(day.rides).map(([id, ride]) => [id, ride.waits[index] ?? null])),
  }));
  const bySlot = new Map<number, HistorySample>();
  for (const sample of [...stored, ...samples]) {
    const held = bySlot.get(slotOf(sample.at));
    if (!held || sample.at < held.at) bySlot.set(slotOf(sample.at), sample);
  }
  const kept = [...bySlot.values()].sort((a, b) => a.at - b.at).slice(-MAX_DAY_SAMPLES);
  const rideNames = new Map<string, string>([
    ...Object.entries(day.rides).map(([id, ride]) => [id, ride.name] as const),
    ...Object.entries(names),
  ]);

  const seen = new Map<string, number>();
  for (const sample of kept) {
    for (const [id, wait] of Object.entries(sample.waits)) {
      if (rideNames.has(id)) seen.set(id, (seen.get(id) ?? 0) + (wait === null ? 0 : 1) + 1e-6);
    }
  }
  const ids = [...seen.keys()]
    .sort((a, b) => (seen.get(b) ?? 0) - (seen.get(a) ?? 0) || (a < b ? -1 : 1))
    .slice(0, MAX_DAY_RIDES);
  const rides = Object.fromEntries(
    ids.sort().map((id) => [id, { name: rideNames.get(id) ?? id, waits: kept.map((s) => s.waits[id] ?? null) }]),
  );
  return { version: 1, date: day.date, times: kept.map((sample) => sample.at), rides };
}
