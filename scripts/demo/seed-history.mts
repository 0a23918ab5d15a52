import { writeRecord } from '../../src/platform/store.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/platform/time-units.ts';
import { readDay } from '../../src/wait-times/day/day-store.ts';
import { DayRecordSchema } from '../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay, SLOT_MS } from '../../src/wait-times/day/park-day.ts';
import { blobsHistory, memoryHistory, recordSample, sampleOf } from '../../src/wait-times/forecast/park-history.ts';
import { dayBoundsOf, localDateOf } from '../../src/wait-times/local-time.ts';
import type { HistorySample } from '../../src/wait-times/park-snapshot-schemas.ts';
import { findPark } from '../../src/wait-times/parks.ts';
import { ridesOf } from '../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../src/wait-times/queue-times-schemas.ts';
import { movingWaits, recordedPayload } from '../fake-queue-times.mts';

/**
 * Gives a park in Blobs (NETLIFY_BLOBS_CONTEXT) what a few days of the service would leave, so that
 * charts and a crowd level show at once: the profile learned by the service's own `recordSample`
 * from a past day of `movingWaits`, today so far at `crowd` times a usual day, and the last 45
 * minutes as history samples. False when the park already has today's record.
 */
export async function seedParkHistory(slug: string, now: number, crowd: number): Promise<boolean> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const date = localDateOf(now, park.timezone);
  if (await readDay(slug, date)) return false;
  const sampleAt = (at: number, factor: number) => {
    const payload = movingWaits(recordedPayload(park.queueTimesId), at, park.queueTimesId, factor);
    return { fetchedAt: at, rides: ridesOf(QueueTimesParkSchema.parse(payload)) };
  };
  const { startsAt } = dayBoundsOf(date, park.timezone);
  const todayFrom = Math.max(startsAt, now - 14 * HOUR_MS);
  // The 24 hours before today: every half hour of the day learned once, in memory.
  const first = Math.floor((todayFrom - DAY_MS) / SLOT_MS) * SLOT_MS;
  const learning = memoryHistory();
  for (let at = first; at < todayFrom; at += SLOT_MS) {
    await recordSample(learning, sampleOf(sampleAt(at, 1)), park.timezone);
  }
  const profile = await learning.readProfile();
  const names: Record<string, string> = {};
  const today: HistorySample[] = [];
  for (let at = Math.ceil(todayFrom / SLOT_MS) * SLOT_MS; at < now - SLOT_MS; at += SLOT_MS) {
    const snapshot = sampleAt(at, crowd);
    for (const ride of snapshot.rides) names[String(ride.id)] = ride.name;
    today.push(sampleOf(snapshot));
  }
  await writeRecord('wait-times', `day/${slug}/${date}`, DayRecordSchema, addSamples(emptyDay(date), today, names));
  const history = blobsHistory(slug);
  if (profile) await history.writeProfile({ ...profile, learnedThrough: today.at(-1)?.at ?? profile.learnedThrough });
  await Promise.all(
    today.filter((sample) => sample.at > now - 45 * MINUTE_MS).map((sample) => history.writeSample(sample)),
  );
  return true;
}
