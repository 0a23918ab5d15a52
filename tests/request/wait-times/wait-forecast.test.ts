import type { APIContext } from 'astro';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticSchedule } from '../../../scripts/fake-park-hours.mts';
import { type FakeQueueTimes, recordedPayload, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import * as waitTimesRoute from '../../../src/pages/api/wait-times.ts';
import { readRecord, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { readDay } from '../../../src/wait-times/day/day-store.ts';
import { toStep } from '../../../src/wait-times/forecast/outlook.ts';
import { blobsHistory, recordSample } from '../../../src/wait-times/forecast/park-history.ts';
import {
  type StoredWaitProfile,
  StoredWaitProfileSchema,
  type WaitProfile,
} from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { resetParkHoursMemory } from '../../../src/wait-times/hours/park-hours.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import { localDateOf } from '../../../src/wait-times/local-time.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { fetchSnapshot } from '../../../src/wait-times/queue-times.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

/**
 * The forecaster inside the service: the recorder's write of one fetch (`writeParkRecords`) learns,
 * GET /api/wait-times' core (`getWaitTimes`) only reads, against a fake upstream replaying a real
 * Epcot payload and a real Blobs server, with the clock moved by the test.
 */

const MINUTE = 60_000;
/** 10:05 in Orlando (EST): slot 20 of the park's day. */
const TEN_AM_EASTERN = Date.parse('2026-01-14T15:05:00Z');
const TEST_TRACK = 160; // open, 60 minutes in the recording
const FROZEN = 2679; // open, 65 minutes in the recording

let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
const epcot = findPark('epcot') as Park;

interface RawRide {
  id: number;
  wait_time: number;
  is_open: boolean;
}
type RawPark = { lands: { rides: RawRide[] }[]; rides: RawRide[] };

/** The recorded Epcot payload with some rides' waits replaced. */
function epcotWith(waits: Record<number, number>): unknown {
  const park = structuredClone(recordedPayload(5)) as RawPark;
  for (const ride of [...park.lands.flatMap((land) => land.rides), ...park.rides]) {
    const wait = waits[ride.id];
    if (wait !== undefined) ride.wait_time = wait;
  }
  return park;
}

const profileOf = () => blobsHistory(epcot.slug).readProfile();
/** What the recorder does with a park each period, without the claim. */
const record = async () => (await writeParkRecords(epcot, await fetchSnapshot(epcot), null)).answer;
const rideNamed = async (name: string) =>
  (await getWaitTimes(epcot)).body.rides.find((ride) => ride.name === name) ?? expect.fail(`no ride ${name}`);

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
});
afterAll(async () => {
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await upstream.close();
});
beforeEach(async () => {
  blobs = await startLocalBlobs();
  resetWaitTimesMemory();
  upstream.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(TEN_AM_EASTERN);
});
afterEach(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

describe('the forecast in GET /api/wait-times', () => {
  it('is the wait as it is on a cold start, null for closed rides, and a profile record is started', async () => {
    const answer = await record();
    expect(answer.rides.length).toBeGreaterThan(10);
    for (const ride of answer.rides) expect(ride.forecast).toBe(ride.open ? toStep(ride.wait) : null);
    expect(await profileOf()).toEqual({ version: 1, learnedThrough: answer.updatedAt, rides: {} });
    expect((await getWaitTimes(epcot)).body).toEqual(answer);
    expect(upstream.count()).toBe(1);
  });

  it('with `later`, a visitor’s refresh hands storing the answer to it, and stores nothing else', async () => {
    const handed: Promise<unknown>[] = [];
    const { body } = await getWaitTimes(epcot, { later: (task) => handed.push(task) });
    expect(handed).toHaveLength(1);
    await Promise.all(handed);
    expect(await readRecord('wait-times', `answer/${epcot.slug}`, z.object({ updatedAt: z.number() }))).toEqual({
      updatedAt: body.updatedAt,
    });
    expect(await profileOf()).toBeNull();
    expect(await readDay(epcot.slug, localDateOf(body.updatedAt, epcot.timezone))).toBeNull();
  });

  it("as a route on Netlify, hands that work to the function's waitUntil, found in locals.netlify", async () => {
    const handed: Promise<unknown>[] = [];
    const url = new URL('https://site.example/api/wait-times?park=epcot');
    const context = {
      url,
      request: new Request(url),
      cache: { set() {} },
      locals: { netlify: { context: { waitUntil: (task: Promise<unknown>) => handed.push(task) } } },
    };
    const response = await waitTimesRoute.GET(context as unknown as APIContext);
    expect(response.status).toBe(200);
    expect(handed).toHaveLength(1);
    await Promise.all(handed);
    expect(await readRecord('wait-times', `answer/${epcot.slug}`, z.unknown())).toEqual(await response.json());
  });

  it('learns from the samples it records about 30 minutes apart, in the slot of the park-local time', async () => {
    for (let step = 0; step <= 8; step++) {
      upstream.payloads[5] = epcotWith({ [TEST_TRACK]: 60 + 5 * step });
      await record();
      vi.setSystemTime(Date.now() + 5 * MINUTE + 1000);
    }
    const profile = (await profileOf()) as WaitProfile;
    const testTrack = profile.rides[String(TEST_TRACK)];
    // Samples from 10:05 to 10:45 pair up from 10:35 on; their earlier halves fall in 10:00–10:29.
    expect(Object.keys(testTrack?.buckets ?? {})).toEqual(['20']);
    const { level = 0, bands } = testTrack?.buckets['20'] ?? {};
    expect(level).toBeGreaterThanOrEqual(60);
    expect(bands?.near.count).toBeGreaterThanOrEqual(3);
    expect(bands?.near.shift).toBeGreaterThan(0); // it climbed 30 minutes in every 30 minutes
  });

  it("answers with the park's learned profile: a ride that usually climbs at this hour is forecast higher", async () => {
    // As stored, and as written before the open share was kept (eight members): still read.
    const climbsAtTen: StoredWaitProfile = {
      version: 1,
      learnedThrough: TEN_AM_EASTERN - MINUTE,
      rides: { [TEST_TRACK]: { seen: TEN_AM_EASTERN - MINUTE, buckets: { 20: [60, 10, 0, 0, 12.4, 50, 0, 0] } } },
    };
    await writeRecord('wait-times', `profile/${epcot.slug}`, StoredWaitProfileSchema, climbsAtTen);
    // 60 + 12.4, sharpened at 30 minutes (1.3 times beyond 2 minutes): 73.5, in 5-minute steps
    expect((await rideNamed('Test Track')).forecast).toBe(75);
    expect((await rideNamed('Frozen Ever After')).forecast).toBe(65); // nothing learned: as it is
  });

  it('answers from the profile of the day’s kind: on a day closing at 17:30, the early-closing one', async () => {
    const climbsAtTen = (learnedThrough: number): StoredWaitProfile => ({
      version: 1,
      learnedThrough,
      rides: { [TEST_TRACK]: { seen: learnedThrough, buckets: { 20: [60, 10, 0, 0, 12.4, 50, 0, 0] } } },
    });
    const nothingLearned: StoredWaitProfile = { version: 1, learnedThrough: TEN_AM_EASTERN - MINUTE, rides: {} };
    await writeRecord('wait-times', `profile/${epcot.slug}`, StoredWaitProfileSchema, nothingLearned);
    await writeRecord(
      'wait-times',
      `profile/early-closing/${epcot.slug}`,
      StoredWaitProfileSchema,
      climbsAtTen(TEN_AM_EASTERN - MINUTE),
    );
    const today = localDateOf(TEN_AM_EASTERN, epcot.timezone);
    upstream.schedules[epcot.themeParksWikiId] = syntheticSchedule(epcot, today, 'normal');
    const offline = process.env.PARK_HOURS_UPSTREAM_URL;
    process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
    try {
      expect((await rideNamed('Test Track')).forecast).toBe(60); // a usual day: nothing learned
      const usual = await profileOf();
      resetWaitTimesMemory();
      resetParkHoursMemory();
      upstream.schedules[epcot.themeParksWikiId] = syntheticSchedule(epcot, today, 'short');
      // Past the stored answer's period and the recorder's margin: a visitor's refresh, at 10:13.
      vi.setSystemTime(TEN_AM_EASTERN + 8 * MINUTE);
      expect((await rideNamed('Test Track')).forecast).toBe(75);
      expect(await profileOf()).toEqual(usual); // the usual one left alone
    } finally {
      process.env.PARK_HOURS_UPSTREAM_URL = offline;
      resetParkHoursMemory();
    }
  });

  it('falls back to persistence when the profile record is damaged, and the recorder replaces it with a sound one', async () => {
    const damaged = { version: 1, learnedThrough: 0, rides: { [FROZEN]: { seen: 0, buckets: { 20: [65, 'x'] } } } };
    await writeRecord('wait-times', `profile/${epcot.slug}`, z.unknown(), damaged);
    upstream.payloads[5] = epcotWith({ [FROZEN]: 67 });
    expect((await rideNamed('Frozen Ever After')).forecast).toBe(65);
    expect(await readRecord('wait-times', `profile/${epcot.slug}`, z.unknown())).toEqual(damaged); // a visit reads only
    expect((await record()).rides.find((ride) => ride.name === 'Frozen Ever After')?.forecast).toBe(65);
    expect(await profileOf()).toMatchObject({ version: 1, rides: {} });
  });
});

describe('the profile record under concurrent refreshes (real Blobs)', () => {
  it('stays valid and counts no sample twice when two instances record at once', async () => {
    const history = blobsHistory('epcot-race');
    const at = (minutes: number) => TEN_AM_EASTERN + minutes * MINUTE;
    for (const minutes of [0, 5, 10, 15, 20, 25]) {
      await recordSample(history, { at: at(minutes), waits: { 1: 30 + minutes } }, epcot.timezone);
    }
    const observations = async () => {
      const { low, near, high } = (await history.readProfile())?.rides['1']?.buckets['20']?.bands ?? {};
      return (low?.count ?? 0) + (near?.count ?? 0) + (high?.count ?? 0);
    };
    const before = await observations(); // 20 and 25 paired with 0
    // Two instances fetch a minute apart and record at the same moment.
    await Promise.all([
      recordSample(history, { at: at(30), waits: { 1: 60 } }, epcot.timezone),
      recordSample(history, { at: at(31), waits: { 1: 61 } }, epcot.timezone),
    ]);
    // The next refresh learns whatever the race left unlearned.
    await recordSample(history, { at: at(36), waits: { 1: 66 } }, epcot.timezone);
    const profile = await history.readProfile();
    const stored = await readRecord('wait-times', 'profile/epcot-race', StoredWaitProfileSchema);
    expect(stored).not.toBeNull();
    // Three new samples with a partner 20–45 minutes earlier: each learned once, or one lost to the race.
    expect(before).toBe(2);
    expect(await observations()).toBeGreaterThanOrEqual(before + 2);
    expect(await observations()).toBeLessThanOrEqual(before + 3);
    expect(profile?.learnedThrough).toBe(at(36));
  });
});
