import { getStore } from '@netlify/blobs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, recordedPayload } from '../../../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { readRecord, writeRecord } from '../../../src/platform/store.ts';
import {
  type OutageBasis,
  OutageBasisSchema,
  outageBasisKey,
  ReopenTableSchema,
  reopenTableKey,
} from '../../../src/wait-times/outages/outage-schemas.ts';
import { readDayOutages } from '../../../src/wait-times/outages/outage-store.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { fetchSnapshot } from '../../../src/wait-times/queue-times.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/**
 * Down rides as the recorder writes them (docs/outages.md), in-process against a real Blobs server
 * and the local replay of queue-times on a fake clock: the test closes rides in the upstream's
 * answer and reads back `outages/<slug>/<date>` and `reopen-odds/<slug>`.
 */

const PARIS = findPark('alphaland-paris') as Park;
const DATE = '2026-08-12';
const local = (clock: string) => localTime(PARIS, `${DATE}T${clock}`);
const OPENS = local('09:00:00');
const CLOSES = local('21:00:00');
const hoursOf = onlyOpen(PARIS, OPENS, CLOSES);

type Ride = { id: number; is_open: boolean };
const payload = recordedPayload(PARIS.queueTimesId) as { lands: { rides: Ride[] }[]; rides: Ride[] };
const OPEN_IDS = payload.lands.flatMap((land) => land.rides.filter((ride) => ride.is_open).map((ride) => ride.id));
const [DOWN = 0, BLIP = 0, ...REST] = OPEN_IDS;
const HOLD = REST.slice(0, 5);

/** The recorded answer with these rides closed. */
const closing = (closed: readonly number[]) => ({
  ...payload,
  lands: payload.lands.map((land) => ({
    ...land,
    rides: land.rides.map((ride) => (closed.includes(ride.id) ? { ...ride, is_open: false } : ride)),
  })),
});

/** Another park's basis with 60 finished outages: half back after 20 minutes, half after 90. */
const otherBasis: OutageBasis = {
  version: 1,
  builtOn: DATE,
  closedHalfHours: [],
  durations: [{ date: '2026-08-11', ended: [...Array(30).fill(20), ...Array(30).fill(90)], censored: [] }],
};

const harness = useRecorderHarness();
let upstream: FakeQueueTimes;
beforeAll(() => {
  upstream = harness.upstream();
  upstream.reset();
});

/** One recorder run at a local clock time, the listed rides closed. */
async function poll(clock: string, closed: readonly number[] = []) {
  upstream.payloads[PARIS.queueTimesId] = closing(closed);
  at(local(clock));
  const run = await runRecordWaitsJob({ hoursOf });
  expect(run.parks?.polled).toEqual([PARIS.slug]);
}

const outagesOf = async (ride: number) =>
  (await readDayOutages(PARIS.slug, DATE))?.outages.filter((outage) => outage.ride === String(ride));

describe('the recorder’s outages', () => {
  it('tells a 25-minute outage from a blip and a hold, answers odds from the pool, and censors at closing', async () => {
    expect(OPEN_IDS.length).toBeGreaterThanOrEqual(7);
    // Another park has history; a third's basis is damaged: the pool takes the one, skips the other.
    await writeRecord('wait-times', outageBasisKey('epcot'), OutageBasisSchema, otherBasis);
    await getStore({ name: 'wait-times', consistency: 'strong' }).set(outageBasisKey('animal-kingdom'), '{"garbage');

    await poll('10:00:10');
    await poll('10:05:10');
    await poll('10:10:10', [DOWN, BLIP]);
    // One closed sample: nobody is down yet.
    expect(await readDayOutages(PARIS.slug, DATE)).toMatchObject({ outages: [], holds: [] });
    // Paris has no history of its own: its table, built on the day's first poll, is the pool's.
    const table = await readRecord('wait-times', reopenTableKey(PARIS.slug), ReopenTableSchema);
    expect(table?.buckets[0]).toMatchObject({ elapsed: 5, scope: 'all parks', outages: 60 });
    expect(table?.buckets[0]?.reopenWithin?.['15']).toBeGreaterThan(0);

    await poll('10:15:10', [DOWN]);
    // The second closed sample: down since the last open sample, running.
    expect(await outagesOf(DOWN)).toEqual([
      { ride: String(DOWN), from: local('10:05:10'), to: null, minutes: 10, censored: null },
    ]);
    expect(await outagesOf(BLIP)).toEqual([]);
    for (const clock of ['10:20:10', '10:25:10', '10:30:10']) await poll(clock, [DOWN]);
    expect((await outagesOf(DOWN))?.[0]).toMatchObject({ to: null, minutes: 25 });

    // Back at 10:35: closed 25 minutes (10:10 to 10:30), 30 from the last open sample to the first open one.
    upstream.payloads[PARIS.queueTimesId] = closing([]);
    at(local('10:35:10'));
    const { outages } = await writeParkRecords(PARIS, await fetchSnapshot(PARIS), await hoursOf(PARIS));
    expect(outages?.previous?.outages).toEqual([expect.objectContaining({ ride: String(DOWN), to: null })]);
    expect(outages?.current.outages).toEqual([
      { ride: String(DOWN), from: local('10:05:10'), to: local('10:35:10'), minutes: 30, censored: null },
    ]);
    expect(await outagesOf(DOWN)).toEqual(outages?.current.outages);

    // Five rides closing in one sample: a park hold, noted, no outage.
    for (const clock of ['10:40:10', '10:45:10', '10:50:10']) await poll(clock, HOLD);
    await poll('10:55:10');
    const day = await readDayOutages(PARIS.slug, DATE);
    expect(day?.holds).toEqual([local('10:40:10')]);
    expect(day?.outages.map((outage) => outage.ride)).toEqual([String(DOWN)]);

    // Down at 20:15, still down at the 21:00 closing: censored at the last closed sample before it.
    await poll('20:10:10');
    for (let minute = 15; minute <= 60; minute += 5) {
      const clock = minute === 60 ? '21:00:10' : `20:${minute}:10`;
      await poll(clock, [DOWN]);
    }
    expect((await outagesOf(DOWN))?.[1]).toEqual({
      ride: String(DOWN),
      from: local('20:10:10'),
      to: local('20:55:10'),
      minutes: 45,
      censored: 'closing',
    });
  }, 300_000);

  it('closes the day before on a day’s first poll: an outage running at midnight ends censored, and joins the basis, rebuilt whole when damaged', async () => {
    const late = onlyOpen(PARIS, localTime(PARIS, '2026-08-13T09:00:00'), localTime(PARIS, '2026-08-14T02:00:00'));
    const lateAt = (clock: string) => localTime(PARIS, clock);
    for (const [clock, closed] of [
      ['2026-08-13T23:45:10', []],
      ['2026-08-13T23:50:10', [DOWN]],
      ['2026-08-13T23:55:10', [DOWN]],
      ['2026-08-14T00:00:10', [DOWN]],
    ] as const) {
      upstream.payloads[PARIS.queueTimesId] = closing(closed);
      at(lateAt(clock));
      // A damaged basis before the new day's first poll: rebuilt from the records, no error.
      if (clock.startsWith('2026-08-14')) {
        await getStore({ name: 'wait-times', consistency: 'strong' }).set(outageBasisKey(PARIS.slug), 'not json');
      }
      const run = await runRecordWaitsJob({ hoursOf: late });
      expect(run.parks?.failed).toEqual([]);
    }
    expect((await readDayOutages(PARIS.slug, '2026-08-13'))?.outages).toEqual([
      {
        ride: String(DOWN),
        from: lateAt('2026-08-13T23:45:10'),
        to: lateAt('2026-08-13T23:55:10'),
        minutes: 10,
        censored: 'day-end',
      },
    ]);
    // The new day starts with nothing down (the ride was not open earlier that day).
    expect((await readDayOutages(PARIS.slug, '2026-08-14'))?.outages).toEqual([]);
    const basis = await readRecord('wait-times', outageBasisKey(PARIS.slug), OutageBasisSchema);
    expect(basis?.builtOn).toBe('2026-08-14');
    // Each outage with how it ended and where it started in the day: 10:05 is 65 minutes after the
    // 09:00 opening and 655 before the 21:00 closing; 23:45 is 135 before the 02:00 closing.
    expect(basis?.durations).toEqual([
      {
        date: DATE,
        ended: [],
        censored: [],
        outages: [
          [30, 'open', 65, 655],
          [45, 'closing', 670, 50],
        ],
      },
      { date: '2026-08-13', ended: [], censored: [], outages: [[10, 'day-end', 885, 135]] },
    ]);
    expect(basis?.closedHalfHours.map((day) => day.date)).toEqual([DATE, '2026-08-13']);
    expect(basis?.closedHalfHours[0]?.rides[String(DOWN)]).toContain(20); // closed 10:10–10:30 local
  }, 120_000);
});
