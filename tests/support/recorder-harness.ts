import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { resetWaitTimesMemory } from '../../src/wait-times/live/live-waits.ts';
import { fromWallClock } from '../../src/wait-times/local-time.ts';
import type { Park } from '../../src/wait-times/parks.ts';
import { type HoursOf, resetRecorderMemory } from '../../src/wait-times/recorder/record-waits.ts';
import { startLocalBlobs } from './local-blobs.ts';

// The recorder in-process, as the request tests of the one writer run it: a real Blobs store, the
// local replay of queue-times with moving waits, a clock the test sets, each case's memory cold.

const HOUR = 60 * 60_000;

/**
 * Starts the store and the upstream for the file; `upstream()` is the fake, once started.
 * `moving: false` serves the payloads a test sets exactly as set (a scripted day).
 */
export function useRecorderHarness({ moving = true }: { moving?: boolean } = {}): { upstream: () => FakeQueueTimes } {
  let upstream: FakeQueueTimes | undefined;
  let blobs: Awaited<ReturnType<typeof startLocalBlobs>> | undefined;
  beforeAll(async () => {
    blobs = await startLocalBlobs();
    upstream = await startFakeQueueTimes({ moving });
    process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  });
  afterAll(async () => {
    delete process.env.WAIT_TIMES_UPSTREAM_URL;
    await upstream?.close();
    await blobs?.stop();
  });
  beforeEach(() => {
    resetWaitTimesMemory();
    resetRecorderMemory();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return {
    upstream: () =>
      upstream ??
      (() => {
        throw new Error('the upstream starts in beforeAll');
      })(),
  };
}

/** Moves the clock the code reads (`Date`) to `time`; timers stay real. */
export function at(time: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(time);
}

/** A wall-clock time in the park's zone as Unix ms. */
export const localTime = (park: Park, iso: string) => fromWallClock(Date.parse(`${iso}Z`), park.timezone);

/** Hours for one park; every other park is closed all day (open two days later). */
export const onlyOpen =
  (open: Park, opensAt: number, closesAt: number): HoursOf =>
  async (park) =>
    park.slug === open.slug ? { opensAt, closesAt } : { opensAt: opensAt + 48 * HOUR, closesAt: opensAt + 49 * HOUR };
