import { beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, recordedPayload, withClosedRides } from '../../../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { readRecord, writeRecord } from '../../../src/platform/store.ts';
import { getWaitHistory } from '../../../src/wait-times/day/history.ts';
import { WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';

import {
  OutageBasisSchema,
  outageBasisKey,
  ReopenTableSchema,
  reopenTableKey,
} from '../../../src/wait-times/outages/outage-schemas.ts';
import { bucketFor } from '../../../src/wait-times/outages/reopen-odds.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { ridesOf } from '../../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../../src/wait-times/queue-times-schemas.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/**
 * The whole path of a ride down (issue 45): the recorder polls the local replay of queue-times on
 * a fake clock, one ride closes for 25 minutes, and GET /api/wait-times/history's loader serves
 * what the recorder wrote: nothing at the first closed sample, `down` with the pool's odds from
 * the second, the minutes growing, then an ended outage.
 */

const PARIS = findPark('alphaland-paris') as Park;
const DATE = '2026-08-19';
const local = (clock: string) => localTime(PARIS, `${DATE}T${clock}`);
const hoursOf = onlyOpen(PARIS, local('09:00:00'), local('21:00:00'));
const RIDE = ridesOf(QueueTimesParkSchema.parse(recordedPayload(PARIS.queueTimesId))).find((ride) => ride.open);
if (!RIDE) throw new Error('no open ride at alphaland-paris');

const harness = useRecorderHarness();
let upstream: FakeQueueTimes;
beforeAll(async () => {
  upstream = harness.upstream();
  upstream.reset();
  // Another park's history for the pool: 60 finished outages, half back after 20 minutes, half after 90.
  await writeRecord('wait-times', outageBasisKey('epcot'), OutageBasisSchema, {
    version: 1,
    builtOn: DATE,
    closedHalfHours: [],
    durations: [{ date: '2026-08-18', ended: [...Array(30).fill(20), ...Array(30).fill(90)], censored: [] }],
  });
});

/** One recorder run at a local time, the ride closed or not; then the day as a visitor a minute later reads it. */
async function pollAndRead(clock: string, closed: boolean) {
  upstream.payloads[PARIS.queueTimesId] = withClosedRides(
    recordedPayload(PARIS.queueTimesId),
    closed ? [RIDE?.id ?? 0] : [],
  );
  at(local(clock));
  expect((await runRecordWaitsJob({ hoursOf })).parks?.polled).toEqual([PARIS.slug]);
  at(local(clock) + 60_000);
  const { body } = await getWaitHistory(PARIS);
  const ride = WaitHistorySchema.parse(body).rides.find((entry) => entry.name === RIDE?.name);
  if (!ride) throw new Error(`${RIDE?.name} missing from the day`);
  return ride;
}

describe('a ride down, from the recorder’s polls to the history', () => {
  it('is down from its second closed sample with the pool’s odds, for as long as it lasts, then an ended outage', async () => {
    await pollAndRead('10:00:10', false);
    await pollAndRead('10:05:10', false);
    // One closed sample is a blip so far: not down.
    expect(await pollAndRead('10:10:10', true)).toMatchObject({ down: null, outages: [] });

    const second = await pollAndRead('10:15:10', true);
    const table = await readRecord('wait-times', reopenTableKey(PARIS.slug), ReopenTableSchema);
    const bucket = table && bucketFor(table, 10);
    expect(bucket).toMatchObject({ elapsed: 5, scope: 'all parks', outages: 60 });
    expect(bucket?.reopenWithin).not.toBeNull();
    expect(second.down).toEqual({
      since: local('10:05:10'),
      minutes: 10,
      reopenWithin: bucket?.reopenWithin,
      outages: 60,
      scope: 'all parks',
    });
    expect(second.outages).toEqual([{ from: local('10:05:10'), to: null, minutes: 10, censored: null }]);
    // Closed now, the ride has no outlook and no best time, as before.
    expect(second.bestTime).toBeNull();

    for (const clock of ['10:20:10', '10:25:10']) await pollAndRead(clock, true);
    const later = await pollAndRead('10:30:10', true);
    expect(later.down).toMatchObject({ since: local('10:05:10'), minutes: 25 });
    expect(later.down?.reopenWithin).toEqual(table && bucketFor(table, 25)?.reopenWithin);

    const back = await pollAndRead('10:35:10', false);
    expect(back.down).toBeNull();
    expect(back.outages).toEqual([{ from: local('10:05:10'), to: local('10:35:10'), minutes: 30, censored: null }]);
  });
});
