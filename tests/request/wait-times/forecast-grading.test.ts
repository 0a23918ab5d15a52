import { describe, expect, it } from 'vitest';
import { recordedPayload } from '../../../scripts/fake-queue-times.mts';
import { runGradeForecastsJob } from '../../../src/jobs/grade-forecasts-job.ts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { listKeys, readRecord } from '../../../src/platform/store.ts';
import { getAccuracy } from '../../../src/wait-times/accuracy/accuracy.ts';
import {
  gradesKeyOf,
  ParkDayGradesSchema,
  type ServedDayRecord,
} from '../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { gradeDay } from '../../../src/wait-times/accuracy/grading.ts';
import type { StoredServed } from '../../../src/wait-times/accuracy/served-forecasts.ts';
import { archiveServed, readServedDay, servedByRide } from '../../../src/wait-times/accuracy/served-store.ts';
import { readDay } from '../../../src/wait-times/day/day-store.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import type { ParkSnapshot } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { ridesOf } from '../../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../../src/wait-times/queue-times-schemas.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';
import type { WaitTimes } from '../../../src/wait-times/wait-times-schemas.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/**
 * The scorecard's records against a real Blobs server and the local replay of queue-times on a
 * fake clock: the recorder archives what GET /api/wait-times served, and once the park's local day
 * is over the grading job grades it, once (docs/accuracy.md).
 */

const MINUTE = 60_000;
const PARIS = findPark('alphaland-paris') as Park;
const DATE = '2026-07-10';
const local = (iso: string) => localTime(PARIS, iso);
const OPENS = local(`${DATE}T19:00:00`);
const CLOSES = local(`${DATE}T22:00:00`);
/** Paris open 19:00–22:00; every other park closed all day. */
const hoursOf = onlyOpen(PARIS, OPENS, CLOSES);
useRecorderHarness();

describe('the scorecard of a park-day', () => {
  it('archives what GET /api/wait-times served and grades the day once it is over, once', async () => {
    const served: WaitTimes[] = [];
    // 19:00 to 22:30 (the recorder stops 30 minutes after closing), every 5 minutes.
    for (let time = OPENS + 20_000; time <= CLOSES + 30 * MINUTE; time += 5 * MINUTE) {
      at(time);
      const run = await runRecordWaitsJob({ hoursOf });
      expect(run.parks?.polled).toEqual([PARIS.slug]);
      resetWaitTimesMemory(); // a visitor's cold instance reads what the recorder stored
      served.push((await getWaitTimes(PARIS)).body);
    }

    const archive = (await readServedDay(PARIS.slug, DATE)) as ServedDayRecord;
    expect(archive.times).toEqual(served.map((answer) => answer.updatedAt));
    const idOf = new Map(Object.entries(archive.rides).map(([id, ride]) => [ride.name, id]));
    expect(idOf.size).toBe(Object.keys(archive.rides).length); // names tell the rides apart here
    served.forEach((answer, index) => {
      for (const ride of answer.rides) {
        const entry = archive.rides[idOf.get(ride.name) ?? '']?.served[index];
        // The archived 30-minute forecast is the one served; a closed ride has no entry.
        if (ride.open) expect(entry?.slice(0, 2), ride.name).toEqual([ride.wait, ride.forecast]);
        else expect(entry ?? null).toBeNull();
      }
    });

    // 23:00 in Paris: the day is not over, nothing is graded.
    at(local(`${DATE}T23:00:00`));
    const early = await runGradeForecastsJob();
    expect(early.message).toMatch(/^graded 0, already graded 0, not finished 1, failed 0/);
    expect(await listKeys('wait-times', 'grades/')).toEqual([]);

    // Past midnight: graded, against a calculation from the answers served and the day recorded.
    at(local(`${DATE}T23:59:00`) + 10 * MINUTE);
    const run = await runGradeForecastsJob();
    expect(run).toMatchObject({
      outcome: 'success',
      message: expect.stringMatching(/^graded 1 \(alphaland-paris\/2026-07-10\)/),
    });
    const day = await readDay(PARIS.slug, DATE);
    let [n, absError, absErrorPersistence] = [0, 0, 0];
    for (const answer of served) {
      // The sample nearest the target, at most 5 minutes away.
      const distances = (day?.times ?? []).map((time) => Math.abs(answer.updatedAt + 30 * MINUTE - time));
      const nearest = Math.min(...distances);
      const target = nearest <= 5 * MINUTE ? distances.indexOf(nearest) : -1;
      for (const ride of answer.rides) {
        const actual = day?.rides[idOf.get(ride.name) ?? '']?.waits[target];
        if (!ride.open || ride.forecast === null || target < 0 || actual === null || actual === undefined) continue;
        n += 1;
        absError += Math.abs(ride.forecast - actual);
        absErrorPersistence += Math.abs(ride.wait - actual);
      }
    }
    const grades = await readRecord('wait-times', gradesKeyOf(PARIS.slug, DATE), ParkDayGradesSchema);
    const graded = grades?.horizons[30];
    expect(n).toBeGreaterThan(100);
    expect(graded?.n).toBe(n);
    expect((graded?.absError ?? 0) / n).toBeCloseTo(absError / n, 6);
    expect((graded?.absErrorPersistence ?? 0) / n).toBeCloseTo(absErrorPersistence / n, 6);
    expect(grades?.horizons[120].n).toBeGreaterThan(0);

    // GET /api/accuracy's body, from the job's own grades: the same day, n and MAE (one decimal).
    const { body } = await getAccuracy(PARIS);
    const row = body.windows[0]?.parks[0]?.horizons.find((horizon) => horizon.minutes === 30);
    expect(body.windows[0]).toMatchObject({ days: 7, from: expect.any(String), to: DATE });
    expect(row).toMatchObject({ n, mae: Math.round((absError / n) * 10) / 10 });
    expect(row?.maePersistence).toBe(Math.round((absErrorPersistence / n) * 10) / 10);

    // A second run grades nothing again.
    at(local(`${DATE}T23:59:00`) + 70 * MINUTE);
    const again = await runGradeForecastsJob();
    expect(again.message).toMatch(/^graded 0, already graded 1, not finished 0, failed 0/);
    expect(await readRecord('wait-times', gradesKeyOf(PARIS.slug, DATE), ParkDayGradesSchema)).toEqual(grades);
  }, 300_000); // 43 recorder runs: about 30 s here, more on a busy machine

  it('keeps the archives of the last 400 days when a new day starts', async () => {
    const slug = 'archive-park';
    // 2027-08-05 keeps 400 days: 2026-07-02 to 2027-08-05.
    for (const date of ['2026-07-01', '2026-07-02', '2026-07-03', '2027-08-05']) {
      await archiveServed({ slug, timezone: 'UTC' }, { at: Date.parse(`${date}T12:00:00Z`), rides: new Map() });
    }
    expect(await listKeys('wait-times', `archive/${slug}/`)).toEqual([
      `archive/${slug}/2026-07-02`,
      `archive/${slug}/2026-07-03`,
      `archive/${slug}/2027-08-05`,
    ]);
  });
});

describe('the size of a park-day', () => {
  it('of 12 hours of this park’s recorded rides, archived at every 5-minute poll, and its grading time', async () => {
    const slug = 'size-park';
    const park = { ...PARIS, slug };
    const rides = ridesOf(QueueTimesParkSchema.parse(recordedPayload(PARIS.queueTimesId)));
    const opensAt = local('2026-07-11T09:00:00');
    const hours = { opensAt, closesAt: opensAt + 12 * 60 * MINUTE };
    const polls = 144;
    for (let step = 0; step < polls; step++) {
      const snapshot: ParkSnapshot = {
        fetchedAt: opensAt + step * 5 * MINUTE,
        rides: rides.map((ride, index) => ({ ...ride, wait: ride.open ? 5 * (((index + step) % 12) + 1) : 0 })),
      };
      await writeParkRecords(park, snapshot, hours);
    }
    const archive = (await readServedDay(slug, '2026-07-11')) as ServedDayRecord;
    const bytes = Buffer.byteLength(JSON.stringify(archive));
    // Every usual wait and best time filled in (a park whose profile has learned): the most a day costs.
    const filled = (entry: StoredServed | null) =>
      entry === null ? null : entry.map((value, index) => value ?? (index === 7 ? opensAt + 9 * 60 * MINUTE : 60));
    const rideEntries = Object.values(archive.rides).map((ride) => ({ ...ride, served: ride.served.map(filled) }));
    const full = Buffer.byteLength(JSON.stringify({ ...archive, rides: rideEntries }));
    const day = await readDay(slug, '2026-07-11');
    const started = performance.now();
    const grades = gradeDay(servedByRide(archive), day ?? { version: 1, date: '', times: [], rides: {} });
    const gradingMs = performance.now() - started;
    expect(archive.times).toHaveLength(polls);
    expect(grades.horizons[30].n).toBeGreaterThan(0);
    console.info(
      `archive of ${Object.keys(archive.rides).length} rides, ${polls} polls: ${bytes} bytes (${full} at most); grading it ${gradingMs.toFixed(1)} ms; grades ${Buffer.byteLength(JSON.stringify({ version: 1, park: slug, date: '2026-07-11', gradedAt: Date.now(), ...grades }))} bytes`,
    );
  }, 120_000);
});
