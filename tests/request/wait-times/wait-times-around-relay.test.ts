import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { listKeys, timeKey, writeRecord } from '../../../src/platform/store.ts';
import { HistorySampleSchema, ParkSnapshotSchema } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { findPark } from '../../../src/wait-times/parks.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/wait-times.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

// The core in-process against a real Blobs server: the history is recorded once per upstream
// fetch and only read for a snapshot another instance stored.
let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  blobs = await startLocalBlobs();
  resetWaitTimesMemory();
});
afterAll(async () => {
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await blobs.stop();
  await upstream.close();
});

describe('wait times around the relay', () => {
  it('records one history sample per upstream fetch, however many requests share it', async () => {
    const park = findPark('epcot');
    if (!park) throw new Error('no epcot');
    upstream.delayMs = 100;
    const answers = await Promise.all(Array.from({ length: 5 }, () => getWaitTimes(park)));
    expect(upstream.count('/parks/5/queue_times.json')).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.updatedAt)).size).toBe(1);
    expect(await listKeys('wait-times', 'history/epcot/')).toEqual([
      `history/epcot/${timeKey(answers[0]?.body.updatedAt ?? 0)}`,
    ]);
  });

  it('reads, without recording, the history of a snapshot another instance stored', async () => {
    const park = findPark('hollywood-studios');
    if (!park) throw new Error('no hollywood-studios');
    const now = Date.now();
    const rides = [{ id: 1, name: 'Coaster', wait: 45, open: true }];
    await writeRecord('wait-times', 'latest/hollywood-studios', ParkSnapshotSchema, { fetchedAt: now, rides });
    const earlier = { at: now - 30 * 60_000, waits: { 1: 20 } };
    await writeRecord('wait-times', `history/hollywood-studios/${timeKey(earlier.at)}`, HistorySampleSchema, earlier);
    const { body } = await getWaitTimes(park);
    expect(upstream.count('/parks/7/queue_times.json')).toBe(0);
    expect(body).toMatchObject({ updatedAt: now, rides: [{ name: 'Coaster', wait: 45, trend: 'up' }] });
    expect(await listKeys('wait-times', 'history/hollywood-studios/')).toHaveLength(1);
  });
});
