import { deleteRecords, listKeys, readRecord, writeRecord } from '../../platform/store.ts';
import { expiredKeys } from '../days-kept.ts';
import { blobsHistory, sampleOf } from '../forecast/park-history.ts';
import { dayBoundsOf, localDateOf } from '../local-time.ts';
import type { ParkSnapshot } from '../park-snapshot-schemas.ts';
import type { Park } from '../parks.ts';
import { type DayRecord, DayRecordSchema } from './history-schemas.ts';
import { addSamples, emptyDay, wouldAdd } from './park-day.ts';

/**
 * A park's local days in the `wait-times` store, `day/<slug>/<YYYY-MM-DD>`, kept `DAYS_KEPT` days
 * (docs/wait-history.md; GET /api/wait-times/days serves the finished ones, docs/accuracy.md). Two instances writing a day at once can drop each other's
 * sample; every write therefore merges back the 3-hour write-once history samples the day is
 * missing (order-free, park-day.ts), so a sample stays lost only if no refresh follows within 3 hours.
 */

// Kept beside the other per-day records' rule (days-kept.ts), which the outages floor shares.
export { DAYS_KEPT, expiredKeys } from '../days-kept.ts';

const prefixOf = (slug: string) => `day/${slug}/`;
const keyOf = (slug: string, date: string) => `${prefixOf(slug)}${date}`;

/** The stored day of a park, or null. */
export function readDay(slug: string, date: string): Promise<DayRecord | null> {
  return readRecord('wait-times', keyOf(slug, date), DayRecordSchema);
}

/**
 * Adds a fetch to its park's local day and returns the day as written; the first write of a day
 * also deletes those older than `DAYS_KEPT` days.
 */
export async function recordDay(park: Pick<Park, 'slug' | 'timezone'>, snapshot: ParkSnapshot): Promise<DayRecord> {
  const sample = sampleOf(snapshot);
  const date = localDateOf(sample.at, park.timezone);
  const history = blobsHistory(park.slug);
  const [stored, historyTimes] = await Promise.all([readDay(park.slug, date), history.sampleTimes()]);
  const day = stored ?? emptyDay(date);
  const { startsAt, endsAt } = dayBoundsOf(date, park.timezone);
  const missing = historyTimes.filter((at) => at >= startsAt && at < endsAt && at !== sample.at && wouldAdd(day, at));
  const repaired = await history.readSamples(missing);
  const names = Object.fromEntries(snapshot.rides.map((ride) => [String(ride.id), ride.name]));
  const key = keyOf(park.slug, date);
  const written = addSamples(day, [...repaired, sample], names);
  await writeRecord('wait-times', key, DayRecordSchema, written);
  if (stored) return written;
  // A new day: the park's days older than DAYS_KEPT go.
  const old = expiredKeys(await listKeys('wait-times', prefixOf(park.slug)), prefixOf(park.slug), date);
  if (old.length > 0) await deleteRecords('wait-times', old);
  return written;
}
