import { readRecord, writeRecord } from '../../src/platform/store.ts';
import { MINUTE_MS } from '../../src/platform/time-units.ts';
import { DayRecordSchema } from '../../src/wait-times/day/history-schemas.ts';
import { localDateOf, shiftDate } from '../../src/wait-times/local-time.ts';
import {
  DayOutagesSchema,
  dayOutagesKey,
  type Outage,
  type ReopenTable,
  ReopenTableSchema,
  reopenTableKey,
} from '../../src/wait-times/outages/outage-schemas.ts';
import { findPark } from '../../src/wait-times/parks.ts';
import { ridesOf } from '../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../src/wait-times/queue-times-schemas.ts';
import { recordedPayload } from '../fake-queue-times.mts';

// SYNTHETIC rides down, for the browser tests (and anyone showing the widget): a park's day record
// with rides closed for their last samples, the outages the recorder would record for them, and a
// reopen table with made-up odds and counts. Nothing here was measured.

/** For each ride down, how many of the day's last samples it was closed: 10, 45 and 75 minutes. */
export const DOWN_SAMPLES = [2, 9, 15] as const;

const within = (p15: number, p30: number, p60: number) => ({ '15': p15 / 100, '30': p30 / 100, '60': p60 / 100 });

/**
 * Made-up odds: the park's own at 5 and 15 minutes, pooled at 30, too few outages at 60. So the
 * rides down above read "about 55 % … from 412 outages", "… across all parks" and no odds at all.
 */
export const SEEDED_REOPEN_TABLE = (builtAt: number): ReopenTable => ({
  version: 1,
  builtAt,
  buckets: [
    { elapsed: 5, reopenWithin: within(35, 55, 70), outages: 412, scope: 'park' },
    { elapsed: 15, reopenWithin: within(30, 45, 60), outages: 268, scope: 'park' },
    { elapsed: 30, reopenWithin: within(20, 35, 55), outages: 1874, scope: 'all parks' },
    { elapsed: 60, reopenWithin: null, outages: 9, scope: 'all parks' },
  ],
});

/** The rides to take down at a park: its first open ones in the recorded payload, one per `DOWN_SAMPLES`. */
export function ridesToTakeDown(slug: string): number[] {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const rides = ridesOf(QueueTimesParkSchema.parse(recordedPayload(park.queueTimesId)));
  return rides
    .filter((ride) => ride.open)
    .map((ride) => ride.id)
    .sort((a, b) => a - b)
    .slice(0, DOWN_SAMPLES.length);
}

/**
 * In Blobs (NETLIFY_BLOBS_CONTEXT), after `seedParkHistory`: closes `rides` in the last samples of
 * today's day record, and writes their ongoing outages (from their last open sample) and the
 * park's reopen table. False when the park has no day record today with enough samples.
 */
export async function seedOutages(slug: string, rides: readonly number[], now: number): Promise<boolean> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const date = localDateOf(now, park.timezone);
  const key = `day/${slug}/${date}`;
  const day = await readRecord('wait-times', key, DayRecordSchema);
  const newest = day?.times.at(-1);
  if (!day || newest === undefined || day.times.length <= Math.max(...DOWN_SAMPLES)) return false;
  const outages: Outage[] = [];
  for (const [index, id] of rides.entries()) {
    const ride = day.rides[String(id)];
    const closed = DOWN_SAMPLES[index];
    if (!ride || closed === undefined) continue;
    const open = day.times.length - closed;
    ride.waits = ride.waits.map((wait, at) => (at >= open ? null : (wait ?? 15)));
    const from = day.times[open - 1] ?? newest;
    const minutes = Math.floor((newest - from) / MINUTE_MS);
    outages.push({ ride: String(id), from, to: null, minutes, censored: null });
  }
  await writeRecord('wait-times', key, DayRecordSchema, day);
  await writeRecord('wait-times', dayOutagesKey(slug, date), DayOutagesSchema, {
    version: 1,
    date,
    updatedAt: newest,
    outages,
    holds: [],
  });
  await writeRecord('wait-times', reopenTableKey(slug), ReopenTableSchema, SEEDED_REOPEN_TABLE(now));
  return true;
}

/** Past outages' lengths in minutes, cycled: most short, a long tail (as park.fan measured: quartiles 10 / 25 / 50). */
const PAST_MINUTES = [10, 10, 15, 20, 25, 25, 30, 45, 50, 60, 90, 150];

/**
 * SYNTHETIC past days for the recorder's own reopen odds (outage-store.ts reads them when a park's
 * local day starts): `days` finished days before today, each with 4 ended outages whose lengths
 * cycle through `PAST_MINUTES`, at 11:00 UTC plus an hour each. The demo's recorder then builds a
 * real Kaplan–Meier table from them.
 */
export async function seedPastOutages(slug: string, now: number, days = 30): Promise<void> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const today = localDateOf(now, park.timezone);
  let next = 0;
  for (let back = 1; back <= days; back++) {
    const date = shiftDate(today, -back);
    const outages: Outage[] = [0, 1, 2, 3].map((hour) => {
      const minutes = PAST_MINUTES[next++ % PAST_MINUTES.length] ?? 10;
      const from = Date.parse(`${date}T${11 + 2 * hour}:00:00Z`);
      return { ride: '0', from, to: from + minutes * MINUTE_MS, minutes, censored: null };
    });
    const updatedAt = Date.parse(`${date}T23:00:00Z`);
    await writeRecord('wait-times', dayOutagesKey(slug, date), DayOutagesSchema, {
      version: 1,
      date,
      updatedAt,
      outages,
      holds: [],
    });
  }
}
