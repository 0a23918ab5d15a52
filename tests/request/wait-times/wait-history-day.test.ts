import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordedPayload } from '../../../scripts/fake-queue-times.mts';
import { startGatedBlobs } from '../../../server/blobs.mts';
import { listKeys, writeRecord } from '../../../src/platform/store.ts';
import { readDay, recordDay } from '../../../src/wait-times/day/day-store.ts';
import { DayRecordSchema } from '../../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay } from '../../../src/wait-times/day/park-day.ts';
import { blobsHistory, recordSample, sampleOf } from '../../../src/wait-times/forecast/park-history.ts';
import type { DayHours } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { localDateOf } from '../../../src/wait-times/local-time.ts';
import type { ParkSnapshot } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { findPark, PARKS } from '../../../src/wait-times/parks.ts';
import { ridesOf } from '../../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../../src/wait-times/queue-times-schemas.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';

/**
 * The day records against a real Blobs server: what one recorder write costs in Blobs operations,
 * how a write lost to an overlapping run is repaired, and how old days go. Calls the code the way
 * the recorder does (recorder/park-records.ts), with the park's real recorded rides.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PARIS = findPark('alphaland-paris');
if (!PARIS) throw new Error('no alphaland-paris');
const RIDES = ridesOf(QueueTimesParkSchema.parse(recordedPayload(PARIS.queueTimesId)));
/** 10:00 in Paris (summer). */
const MORNING = Date.parse('2026-07-04T08:00:00Z');

const snapshotAt = (at: number, step = 0): ParkSnapshot => ({
  fetchedAt: at,
  rides: RIDES.map((ride, index) => ({ ...ride, wait: ride.open ? 5 * ((index + step) % 12) : 0 })),
});

/** What the recorder writes after a fetch (recorder/park-records.ts): the sample, the profile, the day, the answer, the archive of what was served. */
const refresh = (snapshot: ParkSnapshot, slug: string, hours: DayHours | null = null) =>
  writeParkRecords({ ...PARIS, slug }, snapshot, hours);

let directory: string;
let stopBlobs: () => Promise<void>;
const operations: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'site-api-day-'));
  // Behind the gate, as the local runtime serves Blobs (a list never overlaps a write of its store).
  const blobs = await startGatedBlobs({
    directory,
    token: 't',
    siteID: 'test',
    onRequest: ({ type, url }) => {
      const key = decodeURIComponent(new URL(url, 'http://x').pathname).split('/').slice(3).join('/');
      operations.push(`${type} ${key}`);
    },
  });
  stopBlobs = blobs.stop;
  process.env.NETLIFY_BLOBS_CONTEXT = blobs.context;
});
afterAll(async () => {
  await stopBlobs();
  delete process.env.NETLIFY_BLOBS_CONTEXT;
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => {
  operations.length = 0;
});

describe('the day record of a park', () => {
  it('costs 3 Blobs operations per refresh (read, list, write), plus a list on the first of a local day', async () => {
    const slug = 'cost-park';
    const counts: number[] = [];
    for (let step = 0; step < 40; step++) {
      operations.length = 0;
      await recordDay({ slug, timezone: PARIS.timezone }, snapshotAt(MORNING + step * 5 * MINUTE, step));
      counts.push(operations.length);
    }
    expect(counts[0]).toBe(4);
    expect(new Set(counts.slice(1))).toEqual(new Set([3]));
    const day = await readDay(slug, '2026-07-04');
    expect(day?.times).toHaveLength(40);
    const bytes = Buffer.byteLength(JSON.stringify(day));
    // A full day (MAX_DAY_SAMPLES) of this park stays near 7.5 times this.
    console.info(`day record of ${Object.keys(day?.rides ?? {}).length} rides, 40 samples: ${bytes} bytes`);
  });

  it('keeps a whole recorder write (history sample, profile, day, answer, archive) within a bounded number of Blobs operations', async () => {
    const slug = 'refresh-park';
    const counts: number[] = [];
    const profileReads: string[][] = [];
    const outageOperations: string[][] = [];
    // 5 hours of refreshes: the 3-hour history fills, then prunes one sample per refresh; the last
    // hour on a day closing at 18:00, whose profile starts as the usual one (one more read, once).
    const earlyClosing = { opensAt: MORNING - HOUR, closesAt: MORNING + 8 * HOUR };
    for (let step = 0; step < 60; step++) {
      operations.length = 0;
      await refresh(snapshotAt(MORNING + step * 5 * MINUTE, step), slug, step < 48 ? null : earlyClosing);
      counts.push(operations.length);
      profileReads.push(operations.filter((operation) => /^get profile\//.test(operation)));
      outageOperations.push(
        operations.filter((operation) => /^\w+ (outages|outage-basis|reopen-odds)\//.test(operation)),
      );
    }
    expect(profileReads[47]).toEqual([`get profile/${slug}`]);
    expect(profileReads[48]).toEqual([`get profile/early-closing/${slug}`, `get profile/${slug}`]);
    expect(profileReads[49]).toEqual([`get profile/early-closing/${slug}`]);
    const steady = counts.slice(40);
    console.info(
      `Blobs operations per refresh: first ${counts[0]}, after 3 hours ${Math.min(...steady)}–${Math.max(...steady)}`,
    );
    // Down rides (outages/outage-store.ts): 2 reads per refresh, and a write when the day's outages
    // changed (here on the first refresh only: no ride closes); the first refresh of a local day
    // also rebuilds the basis and the reopen table: a list, every other park's basis, 3 writes.
    console.info(`Outage operations: first ${outageOperations[0]?.length}: ${outageOperations[0]?.join(', ')}`);
    expect(outageOperations.slice(1).map((list) => list.toSorted())).toEqual(
      Array(59).fill([`get outage-basis/${slug}`, `get outages/${slug}/2026-07-04`]),
    );
    expect(outageOperations[0]?.length).toBeLessThanOrEqual(5 + PARKS.length);
    // 12 before the scorecard's archive of what was served (a read and a write per refresh), 14
    // before the outages.
    expect(Math.max(...counts.slice(1))).toBeLessThanOrEqual(16);
  });

  it('repairs a sample lost to a second instance writing the day at the same moment', async () => {
    const slug = PARIS.slug;
    const a = snapshotAt(MORNING, 1);
    const b = snapshotAt(MORNING + 5 * MINUTE, 2);
    // Both instances recorded their sample in the history; B's day write, made from a day read
    // before A's landed, won: the day lacks A.
    await recordSample(blobsHistory(slug), sampleOf(a), PARIS.timezone);
    await recordSample(blobsHistory(slug), sampleOf(b), PARIS.timezone);
    const names = Object.fromEntries(RIDES.map((ride) => [String(ride.id), ride.name]));
    await writeRecord(
      'wait-times',
      `day/${slug}/2026-07-04`,
      DayRecordSchema,
      addSamples(emptyDay('2026-07-04'), [sampleOf(b)], names),
    );
    expect((await readDay(slug, '2026-07-04'))?.times).toEqual([b.fetchedAt]);

    const c = snapshotAt(MORNING + 10 * MINUTE, 3);
    await recordDay(PARIS, c);
    const day = await readDay(slug, '2026-07-04');
    expect(day?.times).toEqual([a.fetchedAt, b.fetchedAt, c.fetchedAt]);
    const first = RIDES.findIndex((ride) => ride.open);
    expect(day?.rides[String(RIDES[first]?.id)]?.waits[0]).toBe(sampleOf(a).waits[String(RIDES[first]?.id)]);
  });

  it('keeps the last 400 days and deletes older ones on the first write of a new local day', async () => {
    const slug = 'prune-park';
    const park = { slug, timezone: PARIS.timezone };
    for (const day of [0, 1, 2, 3, 402]) await recordDay(park, snapshotAt(MORNING + day * 24 * 60 * MINUTE));
    // 2026-07-04 + 402 days is 2027-08-10, whose 400 days start on 2026-07-07.
    const keys = await listKeys('wait-times', `day/${slug}/`);
    expect(keys).toEqual([`day/${slug}/2026-07-07`, `day/${slug}/2027-08-10`]);
    expect(localDateOf(MORNING + 402 * 24 * 60 * MINUTE, PARIS.timezone)).toBe('2027-08-10');
  });
});
