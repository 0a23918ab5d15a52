import { writeRecord } from '../src/platform/store.ts';
import { readDay } from '../src/wait-times/day/day-store.ts';
import { DayRecordSchema } from '../src/wait-times/day/history-schemas.ts';
import { addSamples, dayBoundsOf, emptyDay, localDateOf, SLOT_MS } from '../src/wait-times/day/park-day.ts';
import type { WaitProfile } from '../src/wait-times/forecast/wait-profile-schemas.ts';
import type { HistorySample } from '../src/wait-times/park-snapshot-schemas.ts';
import { findPark } from '../src/wait-times/parks.ts';
import { ridesOf } from '../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../src/wait-times/queue-times-schemas.ts';
import { blobsHistory, type ParkHistory, recordSample, sampleOf } from '../src/wait-times/wait-history.ts';
import { movingWaits, recordedPayload } from './fake-queue-times.mts';

/**
 * Gives a park what a few days of the service would have left in Blobs, so that the demo (and the
 * browser tests) show charts and a crowd level at once: the forecaster's profile learned from the
 * past day of the replay fake's day-shaped waits (by the service's own `recordSample`), today so
 * far at `crowd` times a usual day, and the last 45 minutes as history samples (trend, forecast).
 * Needs NETLIFY_BLOBS_CONTEXT (a running Blobs server). Returns false when the park already has
 * today's record.
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
  const todayFrom = Math.max(startsAt, now - 14 * 60 * 60_000);
  // The 24 hours before today's samples: every half hour of the day learned once.
  const first = Math.floor((todayFrom - 24 * 60 * 60_000) / SLOT_MS) * SLOT_MS;

  // The past: learned in memory through the service's own code, then written as one record.
  const learning = fastHistory();
  for (let at = first; at < todayFrom; at += SLOT_MS) {
    await recordSample(learning, sampleOf(sampleAt(at, 1)), park.timezone);
  }
  const profile = await learning.readProfile();

  // Today so far, busier (or quieter) than usual by `crowd`.
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
    today.filter((sample) => sample.at > now - 45 * 60_000).map((sample) => history.writeSample(sample)),
  );
  return true;
}

/** A park's history in plain memory without schema checks: the seeding replays a whole day per park. */
function fastHistory(): ParkHistory {
  const samples = new Map<number, HistorySample>();
  let profile: WaitProfile | null = null;
  return {
    writeSample: async (sample) => void samples.set(sample.at, sample),
    sampleTimes: async () => [...samples.keys()].sort((a, b) => a - b),
    readSamples: async (times) => times.flatMap((time) => samples.get(time) ?? []),
    deleteSamples: async (times) => {
      for (const time of times) samples.delete(time);
    },
    readProfile: async () => profile,
    writeProfile: async (next) => {
      profile = next;
    },
  };
}
