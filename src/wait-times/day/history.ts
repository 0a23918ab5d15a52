import type { Park } from '../parks.ts';
import { blobsHistory } from '../wait-history.ts';
import { getWaitTimes } from '../wait-times.ts';
import { readDay } from './day-store.ts';
import { waitHistoryBody } from './history-body.ts';
import type { WaitHistory } from './history-schemas.ts';
import { localDateOf } from './park-day.ts';

export interface WaitHistoryResult {
  body: WaitHistory;
  /** Seconds the answer may be reused by a cache: as long as the live data, never past local midnight. */
  maxAgeSeconds: number;
}

/**
 * The park's local day so far. Asking for the live waits first keeps the day current (the same
 * one upstream request per park per 5 minutes, shared with GET /api/wait-times) and gives the
 * same 502 when there is nothing at all (without `later`, so a refresh has written the day before it
 * is read here); then two Blobs reads, the day and the profile.
 */
export async function getWaitHistory(park: Park): Promise<WaitHistoryResult> {
  const live = await getWaitTimes(park);
  const now = Date.now();
  const [day, profile] = await Promise.all([
    orNull(readDay(park.slug, localDateOf(now, park.timezone))),
    orNull(blobsHistory(park.slug).readProfile()),
  ]);
  const body = waitHistoryBody(park, day, profile, now);
  const untilMidnight = Math.ceil((body.dayEndsAt - now) / 1000);
  return { body, maxAgeSeconds: Math.max(1, Math.min(live.maxAgeSeconds, untilMidnight)) };
}

/** Blobs is an aid: without it the day is empty and nothing is usual yet, but the answer stands. */
async function orNull<T>(read: Promise<T | null>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    console.warn(`Blobs unavailable for wait history: ${(error as Error).message}`);
    return null;
  }
}
