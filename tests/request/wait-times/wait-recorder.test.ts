import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { syntheticSchedule } from '../../../scripts/fake-park-hours.mts';
import type { FakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { readJobRecords } from '../../../src/jobs/job-runs.ts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { readRecord } from '../../../src/platform/store.ts';
import { getWaitHistory } from '../../../src/wait-times/day/history.ts';
import { blobsHistory } from '../../../src/wait-times/forecast/park-history.ts';
import { resetParkHoursMemory } from '../../../src/wait-times/hours/park-hours.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import { findPark, PARKS, type Park } from '../../../src/wait-times/parks.ts';
import type { HoursOf } from '../../../src/wait-times/recorder/record-waits.ts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/**
 * The wait-times recorder (netlify/functions/record-waits.mts) in-process against a real Blobs
 * server and the local replay of queue-times, on a fake clock: what a park's day looks like with
 * no visitor at all, when it stops polling, and that runs and instances share one upstream request
 * per park per 5 minutes. Each visitor below is a cold instance (memory reset), so it sees only
 * what the recorder stored.
 */

const MINUTE = 60_000;
const PARIS = findPark('alphaland-paris') as Park;
const EPCOT = findPark('epcot') as Park;
const parkPath = (park: Park) => `/parks/${park.queueTimesId}/queue_times.json`;
const local = localTime;

/** Every park open all day (the first test has taught Paris a usual day that would close it later). */
const allOpen: HoursOf = async () => ({ opensAt: 0, closesAt: Date.parse('2100-01-01T00:00:00Z') });

const harness = useRecorderHarness();
let upstream: FakeQueueTimes;
beforeAll(() => {
  upstream = harness.upstream();
});
beforeEach(() => upstream.reset());

describe('the wait-times recorder', () => {
  it('gives three hours of a park day with no visitor a sample every 5 minutes, and trend and forecast at the first visit', async () => {
    const start = local(PARIS, '2026-07-04T10:00:20');
    const hours = onlyOpen(PARIS, local(PARIS, '2026-07-04T09:30:00'), local(PARIS, '2026-07-04T20:00:00'));
    const runs = 37; // 10:00 to 13:00, both included
    for (let step = 0; step < runs; step++) {
      at(start + step * 5 * MINUTE);
      const run = await runRecordWaitsJob({ hoursOf: hours });
      expect(run.parks?.polled).toEqual([PARIS.slug]);
      expect(run.parks?.closed).toHaveLength(PARKS.length - 1);
    }
    expect(upstream.count(parkPath(PARIS))).toBe(runs);
    expect(upstream.count()).toBe(runs);

    // The first visitor, 2 minutes after the last run, on an instance that never asked the upstream.
    at(start + (runs - 1) * 5 * MINUTE + 2 * MINUTE);
    const { body: day } = await getWaitHistory(PARIS);
    expect(day.times).toHaveLength(runs);
    expect(day.times.slice(1).map((time, index) => time - (day.times[index] ?? 0))).toEqual(
      Array(runs - 1).fill(5 * MINUTE),
    );
    // About six observations per half hour: the usual day starts to show.
    expect(day.rides.some((ride) => ride.usual.some((wait) => wait !== null))).toBe(true);
    const { body: live } = await getWaitTimes(PARIS);
    expect(live.updatedAt).toBe(day.updatedAt);
    // The replayed waits climb toward the afternoon: a trend needs the sample 30 minutes before.
    expect(live.rides.some((ride) => ride.trend === 'up')).toBe(true);
    expect(live.rides.filter((ride) => ride.open).every((ride) => ride.forecast !== null)).toBe(true);
    // The visit cost no upstream request.
    expect(upstream.count()).toBe(runs);
    const { last } = await readJobRecords('record-waits');
    expect(last).toMatchObject({ outcome: 'success', startedAt: start + (runs - 1) * 5 * MINUTE });
  }, 180_000); // 37 runs: about 20 s here, several times that on a machine busy with other tiers

  it('stops polling a park that closes at 18:00 after 18:30', async () => {
    const hours = onlyOpen(PARIS, local(PARIS, '2026-07-05T09:00:00'), local(PARIS, '2026-07-05T18:00:00'));
    const polled: string[] = [];
    const usualBefore = await blobsHistory(PARIS.slug).readProfile();
    for (const time of ['18:20:05', '18:25:05', '18:30:00', '18:35:05', '18:40:05', '19:00:05', '23:55:05']) {
      at(local(PARIS, `2026-07-05T${time}`));
      const run = await runRecordWaitsJob({ hoursOf: hours });
      if (run.parks?.polled.includes(PARIS.slug)) polled.push(time);
      else expect(run.parks?.closed).toContain(PARIS.slug);
    }
    expect(polled).toEqual(['18:20:05', '18:25:05', '18:30:00']);
    expect(upstream.count(parkPath(PARIS))).toBe(3);
    // Its polls after closing taught the profile, from today's hours, when each ride closed: the
    // profile of early-closing days (day-kind.ts), the usual one left as it was.
    expect(await blobsHistory(PARIS.slug).readProfile()).toEqual(usualBefore);
    const profile = await blobsHistory(PARIS.slug).readProfile('early-closing');
    expect(profile?.closingLearned).toBe(local(PARIS, '2026-07-05T18:00:00'));
    expect(Object.values(profile?.rides ?? {}).some((ride) => ride.closedEarly !== undefined)).toBe(true);
  });

  it('asks the upstream once per park per period however many runs overlap', async () => {
    at(Date.parse('2026-07-06T12:00:03Z'));
    upstream.delayMs = 300; // slow enough that the runs are in flight together
    const runs = await Promise.all([1, 2, 3].map(() => runRecordWaitsJob({ hoursOf: allOpen })));
    for (const park of PARKS) expect(upstream.count(parkPath(park))).toBe(1);
    const polled = runs.flatMap((run) => run.parks?.polled ?? []);
    expect(polled.toSorted()).toEqual(PARKS.map((park) => park.slug).toSorted());
    expect(runs.flatMap((run) => run.parks?.alreadyRecorded ?? [])).toHaveLength(2 * PARKS.length);

    // A visitor's instance in the same period, whose memory is empty, answers what was recorded.
    resetWaitTimesMemory();
    at(Date.parse('2026-07-06T12:04:50Z'));
    await getWaitTimes(EPCOT);
    expect(upstream.count(parkPath(EPCOT))).toBe(1);
  });

  it('records every other park at once while one park’s upstream hangs', async () => {
    upstream.faults[EPCOT.queueTimesId] = 'hang';
    const startedAt = Date.now();
    const run = runRecordWaitsJob({ hoursOf: allOpen });
    run.catch(() => {}); // awaited below
    // Every other park is fetched before the hanging request gives up (8 s): nobody waits for it.
    // Storing may take longer on a busy machine, so the poll waits for the records, not the clock.
    let stored: ({ updatedAt: number } | null)[] = [];
    await expect
      .poll(
        async () => {
          stored = await Promise.all(
            PARKS.filter((park) => park !== EPCOT).map((park) =>
              readRecord('wait-times', `answer/${park.slug}`, WaitTimesSchema),
            ),
          );
          return stored.every((answer) => answer !== null && answer.updatedAt >= startedAt);
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    for (const answer of stored) expect(answer?.updatedAt).toBeLessThan(startedAt + 8_000);
    expect(upstream.answered(parkPath(EPCOT))).toBe(0);
    const finished = await run;
    expect(finished.outcome).toBe('failure');
    expect(finished.parks?.failed).toEqual([{ park: EPCOT.slug, error: expect.stringContaining('no answer within') }]);
    expect(finished.parks?.polled).toHaveLength(PARKS.length - 1);
  }, 90_000);

  it('answers a park its published hours close at night from the last stored answer, asking the upstream nothing', async () => {
    const schedule = syntheticSchedule(PARIS, '2026-07-07', 'normal'); // 09:00 to 21:00
    upstream.schedules[PARIS.themeParksWikiId] = schedule;
    const offline = process.env.PARK_HOURS_UPSTREAM_URL;
    process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
    try {
      const hours = onlyOpen(PARIS, local(PARIS, '2026-07-07T09:00:00'), local(PARIS, '2026-07-07T21:00:00'));
      at(local(PARIS, '2026-07-07T21:25:05'));
      await runRecordWaitsJob({ hoursOf: hours });
      const stored = await readRecord('wait-times', `answer/${PARIS.slug}`, WaitTimesSchema);
      expect(upstream.count(parkPath(PARIS))).toBe(1);
      // Visitors on cold instances all night: the recorder's last answer, and nothing asked.
      for (const time of ['2026-07-07T21:45:00', '2026-07-07T23:10:00', '2026-07-08T03:00:00']) {
        resetWaitTimesMemory();
        resetParkHoursMemory();
        at(local(PARIS, time));
        expect((await getWaitTimes(PARIS)).body).toEqual(stored);
      }
      expect(upstream.count(parkPath(PARIS))).toBe(1);
      // Inside the window again (half an hour before opening), a visit without a recorder refreshes.
      resetWaitTimesMemory();
      at(local(PARIS, '2026-07-08T08:35:00'));
      expect((await getWaitTimes(PARIS)).body.updatedAt).toBe(local(PARIS, '2026-07-08T08:35:00'));
      expect(upstream.count(parkPath(PARIS))).toBe(2);
    } finally {
      process.env.PARK_HOURS_UPSTREAM_URL = offline;
      resetParkHoursMemory();
    }
  });
});
