import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startGatedBlobs } from '../../../server/blobs.mts';
import { deleteRecords, resetBlobsCooldown, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { getWaitHistory } from '../../../src/wait-times/day/history.ts';
import { type DayRecord, DayRecordSchema, WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { resetParkHoursMemory } from '../../../src/wait-times/hours/park-hours.ts';
import { StoredScheduleSchema } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { scheduleRowsOf } from '../../../src/wait-times/hours/themeparks-wiki.ts';
import {
  type DayOutages,
  DayOutagesSchema,
  dayOutagesKey,
  type ReopenTable,
  ReopenTableSchema,
  reopenTableKey,
} from '../../../src/wait-times/outages/outage-schemas.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';

/**
 * The served side of outages (issue 45): GET /api/wait-times/history's loader against a real Blobs
 * server holding the records the recorder writes (the day, the day's outages, the park's reopen
 * table), seeded here as the recorder would leave them, on a fixed clock. Missing, damaged or
 * unreadable outage records cost `down`'s odds or the fields, never the answer.
 */

const MINUTE = 60_000;
const PARK = findPark('alphaland-paris') as Park;
const DATE = '2026-07-04';
/** 10:00 in Paris, the first of 13 samples 5 minutes apart; the newest is 11:00. */
const FIRST = Date.parse('2026-07-04T08:00:00Z');
const T = (index: number) => FIRST + index * 5 * MINUTE;
const NOW = T(12) + 2 * MINUTE;

/** `null` where closed: 13 samples from the ones listed closed. */
const waits = (closed: number[], wait = 30) => Array.from({ length: 13 }, (_, i) => (closed.includes(i) ? null : wait));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const DAY: DayRecord = {
  version: 1,
  date: DATE,
  times: range(0, 12).map(T),
  rides: {
    // Down since its last open sample at 10:40: 20 minutes at 11:00.
    '8': { name: 'Star Wars Hyperspace Mountain', waits: waits(range(9, 12)) },
    // Down since 10:05: 55 minutes, past the park's 30-minute bucket, which is pooled.
    '11': { name: 'Disneyland Railroad', waits: waits(range(2, 12)) },
    // Down from 10:10 to 10:30, open since.
    '17': { name: 'Casey Jr. – le Petit Train du Cirque', waits: waits([3, 4, 5]) },
    // Open at 11:00 though the outage record still shows it down: the record missed a write.
    '13': { name: 'Meet Mickey Mouse', waits: waits([5, 6, 7]) },
    // Closed all day: never open, so never down.
    '2705': { name: 'Pirate Galleon', waits: waits(range(0, 12)) },
  },
};

/** The recorder's outage record, written at 10:55 (a write behind the day: its counts lag). */
const OUTAGES: DayOutages = {
  version: 1,
  date: DATE,
  updatedAt: T(11),
  outages: [
    { ride: '8', from: T(8), to: null, minutes: 15, censored: null },
    { ride: '11', from: T(1), to: null, minutes: 50, censored: null },
    { ride: '17', from: T(2), to: T(6), minutes: 20, censored: null },
    { ride: '13', from: T(4), to: null, minutes: 35, censored: null },
  ],
  holds: [],
};

const within = (p15: number, p30: number, p60: number) => ({ '15': p15 / 100, '30': p30 / 100, '60': p60 / 100 });
const TABLE: ReopenTable = {
  version: 1,
  builtAt: T(0) - 6 * 60 * MINUTE,
  buckets: [
    { elapsed: 5, reopenWithin: within(35, 55, 70), outages: 412, scope: 'park' },
    { elapsed: 15, reopenWithin: within(30, 45, 60), outages: 268, scope: 'park' },
    { elapsed: 30, reopenWithin: within(20, 35, 55), outages: 1874, scope: 'all parks' },
    { elapsed: 60, reopenWithin: null, outages: 9, scope: 'all parks' },
  ],
};

let directory: string;
let stopBlobs: () => Promise<void>;
/** Reads the Blobs server answered, by key; keys listed in `failing` answer with an error. */
const reads: string[] = [];
const failing = new Set<string>();

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'site-api-outages-'));
  const blobs = await startGatedBlobs({
    directory,
    token: 't',
    siteID: 'test',
    onRequest: ({ type, url }) => {
      const key = decodeURIComponent(new URL(url, 'http://x').pathname).split('/').slice(3).join('/');
      if (type === 'get') reads.push(key);
      if (failing.has(key)) throw new Error(`unavailable: ${key}`);
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
beforeEach(async () => {
  failing.clear();
  resetBlobsCooldown();
  await writeRecord('wait-times', `day/${PARK.slug}/${DATE}`, DayRecordSchema, DAY);
  await writeRecord('wait-times', dayOutagesKey(PARK.slug, DATE), DayOutagesSchema, OUTAGES);
  await writeRecord('wait-times', reopenTableKey(PARK.slug), ReopenTableSchema, TABLE);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  reads.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** The loader's body, checked against the schema the endpoint answers with. */
async function history() {
  const { body } = await getWaitHistory(PARK);
  return WaitHistorySchema.parse(body);
}
const rideNamed = (body: Awaited<ReturnType<typeof history>>, name: string) => {
  const ride = body.rides.find((entry) => entry.name === name);
  if (!ride) throw new Error(`no ride ${name}`);
  return ride;
};

/** A record that no longer matches its schema, written as raw JSON. */
const writeDamaged = (key: string, value: unknown) => writeRecord('wait-times', key, z.unknown(), value);

describe('GET /api/wait-times/history with the recorder’s outage records', () => {
  it('serves a ride down with since, minutes to the newest sample and the odds of its park bucket', async () => {
    const body = await history();
    expect(rideNamed(body, 'Star Wars Hyperspace Mountain').down).toEqual({
      since: T(8),
      minutes: 20,
      reopenWithin: { '15': 0.3, '30': 0.45, '60': 0.6 },
      outages: 268,
      scope: 'park',
    });
    expect(rideNamed(body, 'Star Wars Hyperspace Mountain').outages).toEqual([
      { from: T(8), to: null, minutes: 15, censored: null },
    ]);
  });

  it('says when the odds are pooled from all parks', async () => {
    expect(rideNamed(await history(), 'Disneyland Railroad').down).toEqual({
      since: T(1),
      minutes: 55,
      reopenWithin: { '15': 0.2, '30': 0.35, '60': 0.55 },
      outages: 1874,
      scope: 'all parks',
    });
  });

  it('lists an ended outage without `down`, and never calls a ride open at the newest sample down', async () => {
    const body = await history();
    const casey = rideNamed(body, 'Casey Jr. – le Petit Train du Cirque');
    expect(casey.down).toBeNull();
    expect(casey.outages).toEqual([{ from: T(2), to: T(6), minutes: 20, censored: null }]);
    expect(rideNamed(body, 'Meet Mickey Mouse').down).toBeNull();
    expect(rideNamed(body, 'Pirate Galleon')).toMatchObject({ down: null, outages: [] });
  });

  it('serves an outage cut off unseen with why, and does not call its ride down', async () => {
    await writeRecord('wait-times', dayOutagesKey(PARK.slug, DATE), DayOutagesSchema, {
      ...OUTAGES,
      outages: [...OUTAGES.outages, { ride: '17', from: T(7), to: T(9), minutes: 10, censored: 'gap' }],
    });
    const casey = rideNamed(await history(), 'Casey Jr. – le Petit Train du Cirque');
    expect(casey.outages).toEqual([
      { from: T(2), to: T(6), minutes: 20, censored: null },
      { from: T(7), to: T(9), minutes: 10, censored: 'gap' },
    ]);
    expect(casey.down).toBeNull();
  });

  it('reads 4 records per answer (the day, the usual day, the outages, the reopen table) beside the hours', async () => {
    await history();
    expect(reads.filter((key) => key !== `hours/${PARK.slug}`).sort()).toEqual(
      [
        `day/${PARK.slug}/${DATE}`,
        dayOutagesKey(PARK.slug, DATE),
        `profile/${PARK.slug}`,
        reopenTableKey(PARK.slug),
      ].sort(),
    );
  });

  it('gives `down` without odds when the reopen table is missing, damaged or unreadable', async () => {
    const withoutOdds = { since: T(8), minutes: 20, reopenWithin: null, outages: 0, scope: null };
    await deleteRecords('wait-times', [reopenTableKey(PARK.slug)]);
    expect(rideNamed(await history(), 'Star Wars Hyperspace Mountain').down).toEqual(withoutOdds);

    await writeDamaged(reopenTableKey(PARK.slug), { version: 1, builtAt: T(0), buckets: [{ elapsed: -5 }] });
    expect(rideNamed(await history(), 'Star Wars Hyperspace Mountain').down).toEqual(withoutOdds);

    await writeRecord('wait-times', reopenTableKey(PARK.slug), ReopenTableSchema, TABLE);
    failing.add(reopenTableKey(PARK.slug));
    expect(rideNamed(await history(), 'Star Wars Hyperspace Mountain').down).toEqual(withoutOdds);
  });

  it('cuts the odds to the time left when the park closes within the hour', async () => {
    // SYNTHETIC hours closing at 11:20, 20 minutes after the newest sample, stored as a fresh fetch.
    const schedule = {
      schedule: [
        { date: DATE, type: 'OPERATING', openingTime: `${DATE}T09:00:00+02:00`, closingTime: `${DATE}T11:20:00+02:00` },
      ],
    };
    const rows = scheduleRowsOf(schedule, 'test schedule');
    await writeRecord('wait-times', `hours/${PARK.slug}`, StoredScheduleSchema, { fetchedAt: NOW, rows });
    resetParkHoursMemory();
    try {
      const body = await history();
      expect(body.hours?.closesAt).toBe(T(12) + 20 * MINUTE);
      // The 15-minute bucket's 30 %, 45 %, 60 %: within 20 minutes at most, read off the 15 and 30.
      expect(rideNamed(body, 'Star Wars Hyperspace Mountain').down?.reopenWithin).toEqual({
        '15': 0.3,
        '30': 0.35,
        '60': 0.35,
      });
    } finally {
      await deleteRecords('wait-times', [`hours/${PARK.slug}`]);
      resetParkHoursMemory();
    }
  });

  it('says no odds plainly where the bucket has none (too few outages), with what it rests on', async () => {
    await writeRecord('wait-times', dayOutagesKey(PARK.slug, DATE), DayOutagesSchema, {
      ...OUTAGES,
      outages: [{ ride: '11', from: T(1) - 20 * MINUTE, to: null, minutes: 70, censored: null }],
    });
    expect(rideNamed(await history(), 'Disneyland Railroad').down).toEqual({
      since: T(1) - 20 * MINUTE,
      minutes: 75,
      reopenWithin: null,
      outages: 9,
      scope: 'all parks',
    });
  });

  it('answers the day with no ride down and no outages when the outage record is missing, damaged, unreadable or of another day', async () => {
    const cases: [string, () => Promise<unknown>][] = [
      ['missing', () => deleteRecords('wait-times', [dayOutagesKey(PARK.slug, DATE)])],
      ['damaged', () => writeDamaged(dayOutagesKey(PARK.slug, DATE), { ...OUTAGES, outages: [{ ride: 8 }] })],
      ['a string', () => writeDamaged(dayOutagesKey(PARK.slug, DATE), '{"version": 1, "outa')],
      [
        'of another day',
        () =>
          writeRecord('wait-times', dayOutagesKey(PARK.slug, DATE), DayOutagesSchema, {
            ...OUTAGES,
            date: '2026-07-03',
          }),
      ],
      ['unreadable', async () => failing.add(dayOutagesKey(PARK.slug, DATE))],
    ];
    for (const [what, spoil] of cases) {
      await writeRecord('wait-times', dayOutagesKey(PARK.slug, DATE), DayOutagesSchema, OUTAGES);
      failing.clear();
      resetBlobsCooldown();
      await spoil();
      const body = await history();
      expect(body.times, what).toHaveLength(13);
      expect(body.rides, what).toHaveLength(5);
      for (const ride of body.rides)
        expect({ what, down: ride.down, outages: ride.outages }).toEqual({ what, down: null, outages: [] });
    }
  });
});
