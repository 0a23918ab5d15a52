import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { gradingMessage } from '../../../src/jobs/grade-forecasts-job.ts';
import { writeRecord } from '../../../src/platform/store.ts';
import { getAccuracy } from '../../../src/wait-times/accuracy/accuracy.ts';
import {
  gradesKeyOf,
  type ParkDayGrades,
  ParkDayGradesSchema,
} from '../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { updateForecastBases } from '../../../src/wait-times/accuracy/basis-update.ts';
import { readBasisRecord } from '../../../src/wait-times/accuracy/forecast-basis.ts';
import { readServedDay } from '../../../src/wait-times/accuracy/served-store.ts';
import {
  type StoredWaitProfile,
  StoredWaitProfileSchema,
} from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import { localDateOf, shiftDate } from '../../../src/wait-times/local-time.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { fetchSnapshot } from '../../../src/wait-times/queue-times.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

/**
 * "Never worse than no change, where it is measured" (docs/accuracy.md): a park whose model loses
 * over its last 28 graded days serves persistence as its 30-minute `forecast`, keeps archiving the
 * model's own forecast to be graded, and switches back once the model's grades win. The grades are
 * SYNTHETIC records written straight to the store (no recorded days behind them); the answers and
 * the archive are the recorder's and a visitor's own, on a fake upstream replaying a real Epcot
 * payload and a real Blobs server, on a fake clock.
 */

const MINUTE = 60_000;
/** 10:05 in Orlando (EST): slot 20 of the park's day. */
const TEN_AM_EASTERN = Date.parse('2026-01-14T15:05:00Z');
const TEST_TRACK = 160; // open, 60 minutes in the recording
const epcot = findPark('epcot') as Park;
const TODAY = localDateOf(TEN_AM_EASTERN, epcot.timezone);

/** Test Track usually climbs about 12 minutes in the half hour after 10:00: the model says 75, persistence 60. */
const climbsAtTen: StoredWaitProfile = {
  version: 1,
  learnedThrough: TEN_AM_EASTERN - MINUTE,
  rides: { [TEST_TRACK]: { seen: TEN_AM_EASTERN - MINUTE, buckets: { 20: [60, 10, 0, 0, 12.4, 50, 0, 0] } } },
};

/**
 * SYNTHETIC grades of 28 park-days ending `through`, 20 forecasts graded a day at every horizon:
 * persistence's MAE 4 minutes, the usual day's 6, the model's `modelMae` (give or take a minute
 * from day to day, so the bootstrap has something to resample).
 */
async function writeSyntheticGrades(through: string, modelMae: number): Promise<void> {
  const n = 20;
  for (let back = 0; back < 28; back++) {
    const date = shiftDate(through, -back);
    const mae = modelMae + ((back % 3) - 1);
    const sums = {
      n,
      absError: n * mae,
      error: 0,
      absErrorPersistence: n * 4,
      absErrorUsual: n * 6,
      within5: mae <= 5 ? n : 0,
      within10: n,
    };
    const grades: ParkDayGrades = {
      version: 1,
      park: epcot.slug,
      date,
      gradedAt: TEN_AM_EASTERN - back * 24 * 60 * MINUTE,
      horizons: { 30: sums, 60: sums, 120: sums },
      bestTime: { n: 0, atBest: 0, restMean: 0, regret: 0 },
    };
    await writeRecord('wait-times', gradesKeyOf(epcot.slug, date), ParkDayGradesSchema, grades);
  }
}

/** What the recorder does with a park each period, without the claim. */
const record = async () => (await writeParkRecords(epcot, await fetchSnapshot(epcot), null)).answer;
const testTrackOf = (answer: { rides: { name: string; forecast: number | null; wait: number }[] }) =>
  answer.rides.find((ride) => ride.name === 'Test Track') ?? expect.fail('no Test Track');
const scorecardRows = async () => {
  const { body } = await getAccuracy(epcot);
  return body.windows.map((window) => window.parks[0]?.horizons ?? []);
};

let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

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
  await writeRecord('wait-times', `profile/${epcot.slug}`, StoredWaitProfileSchema, climbsAtTen);
});
afterEach(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

describe('a park whose model loses', () => {
  it('serves persistence as its 30-minute forecast, archives the model’s, and switches back when the model wins', async () => {
    // Nothing graded, nothing decided: the model, and no record is written.
    expect(await updateForecastBases(TEN_AM_EASTERN)).toEqual([]);
    expect(await readBasisRecord(epcot.slug)).toBeNull();

    // 28 graded days where the model (MAE about 8) is clearly worse than no change (4).
    await writeSyntheticGrades('2025-12-13', 8);
    const switched = await updateForecastBases(TEN_AM_EASTERN);
    expect(switched).toEqual(['epcot to persistence']);
    expect(gradingMessage({ graded: [], alreadyGraded: 0, notFinished: 0, failed: [], switched })).toMatch(
      /; the 30-minute forecast switched: epcot to persistence$/,
    );
    const lost = await readBasisRecord(epcot.slug);
    expect(lost).toMatchObject({ horizon30: 'persistence', since: TEN_AM_EASTERN, through: '2025-12-13', n: 560 });
    expect(lost?.skillHigh).toBeLessThan(0);

    // The scorecard: the 30-minute rows say persistence, with the model's own figures; 60 and 120 stay the model.
    for (const rows of await scorecardRows()) {
      expect(rows.map((row) => [row.minutes, row.basis])).toEqual([
        [30, 'persistence'],
        [60, 'model'],
        [120, 'model'],
      ]);
      expect(rows[0]?.mae).toBeGreaterThan(rows[0]?.maePersistence ?? Number.POSITIVE_INFINITY);
    }
    const [, rows28] = await scorecardRows();
    expect(rows28?.[0]).toMatchObject({ n: 560, skillHigh: lost?.skillHigh, skillLow: lost?.skillLow });

    // A visitor's refresh (nothing stored yet) serves the wait now.
    const visited = testTrackOf((await getWaitTimes(epcot)).body);
    expect([visited.wait, visited.forecast]).toEqual([60, 60]);

    // The recorder serves the wait now, and archives the model's forecast (75) beside it to be graded.
    resetWaitTimesMemory(); // a cold instance: the basis is read from Blobs
    vi.setSystemTime(TEN_AM_EASTERN + 5 * MINUTE);
    const served = testTrackOf(await record());
    expect([served.wait, served.forecast]).toEqual([60, 60]);
    expect(testTrackOf((await getWaitTimes(epcot)).body).forecast).toBe(60);
    const archive = await readServedDay(epcot.slug, TODAY);
    expect(archive?.rides[TEST_TRACK]?.served.at(-1)?.slice(0, 2)).toEqual([60, 75]);

    // Between the thresholds (the model about as good as no change): persistence stays.
    await writeSyntheticGrades('2026-01-10', 4);
    expect(await updateForecastBases(TEN_AM_EASTERN + 10 * MINUTE)).toEqual([]);
    expect(await readBasisRecord(epcot.slug)).toMatchObject({ horizon30: 'persistence', since: TEN_AM_EASTERN });

    // 28 newer graded days where the model (MAE about 2) beats no change: it comes back.
    await writeSyntheticGrades('2026-02-07', 2);
    expect(await updateForecastBases(TEN_AM_EASTERN + 15 * MINUTE)).toEqual(['epcot to model']);
    const won = await readBasisRecord(epcot.slug);
    expect(won).toMatchObject({ horizon30: 'model', since: TEN_AM_EASTERN + 15 * MINUTE, through: '2026-02-07' });
    expect(won?.skillLow).toBeGreaterThan(0);
    for (const rows of await scorecardRows()) expect(rows.map((row) => row.basis)).toEqual(['model', 'model', 'model']);

    resetWaitTimesMemory();
    vi.setSystemTime(TEN_AM_EASTERN + 20 * MINUTE);
    const back = testTrackOf(await record());
    expect([back.wait, back.forecast]).toEqual([60, 75]);
    expect((await readServedDay(epcot.slug, TODAY))?.rides[TEST_TRACK]?.served.at(-1)?.slice(0, 2)).toEqual([60, 75]);
  });
});
