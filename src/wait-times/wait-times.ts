import { getConfig } from '../platform/config.ts';
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { relayCache } from '../platform/relay-cache.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { recordDay } from './day/day-store.ts';
import { outlookOf } from './forecast/forecast.ts';
import type { WaitProfile } from './forecast/wait-profile-schemas.ts';
import { minuteOfDay } from './local-time.ts';
import {
  type HistorySample,
  type ParkSnapshot,
  ParkSnapshotSchema,
  type SnapshotRide,
} from './park-snapshot-schemas.ts';
import { findPark, type Park } from './parks.ts';
import { fetchQueueTimes, ridesOf } from './queue-times.ts';
import { blobsHistory, type HistoryContext, readContext, recordSample, sampleOf } from './wait-history.ts';
import type { WaitTimes } from './wait-times-schemas.ts';

export interface WaitTimesResult {
  body: WaitTimes;
  /** Seconds the answer may be reused by a cache. */
  maxAgeSeconds: number;
  /** True when the upstream failed and this is older data. */
  fallback: boolean;
}

/** Without Blobs there is no earlier sample and no profile: trend `flat`, forecast persistence. */
const NO_CONTEXT: HistoryContext = { earlier: null, profile: null };

const latestKey = (slug: string) => `latest/${slug}`;

/** The relay of a park's rides (the history is read and recorded around it, below). */
const relay = relayCache<Park, SnapshotRide[]>({
  label: 'Wait times',
  keyOf: (park) => park.slug,
  async fetch(park) {
    return ridesOf(await fetchQueueTimes(getConfig().WAIT_TIMES_UPSTREAM_URL, park.queueTimesId));
  },
  async readStored(park) {
    const stored = await readRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema);
    return stored ? { fetchedAt: stored.fetchedAt, value: stored.rides } : null;
  },
  async writeStored(park, { fetchedAt, value }) {
    await writeRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema, { fetchedAt, rides: value });
  },
});

/** Each park's newest snapshot time and its history context, derived once per snapshot. */
const contexts = new Map<string, { fetchedAt: number; context: Promise<HistoryContext> }>();

/**
 * The sample about 30 minutes before a snapshot and the profile: recorded (with the day record)
 * when this instance fetched the snapshot from the upstream, else only read. Blobs failing costs
 * trend and forecast, never the answer.
 */
function contextOf(park: Park, snapshot: ParkSnapshot, fromUpstream: boolean, later: AfterAnswer | undefined) {
  const known = contexts.get(park.slug);
  if (known?.fetchedAt === snapshot.fetchedAt) return known.context;
  const history = blobsHistory(park.slug);
  const context = (
    fromUpstream
      ? Promise.all([
          recordSample(history, sampleOf(snapshot), park.timezone, later),
          // The day record serves /api/wait-times/history, not this answer.
          finishLater(`record the day of ${park.slug}`, () => recordDay(park, snapshot), later),
        ]).then(([recorded]) => recorded)
      : readContext(history, snapshot.fetchedAt)
  ).catch((error: Error) => {
    console.warn(`Wait times (${park.slug}): could not read or record the history: ${error.message}`);
    return NO_CONTEXT;
  });
  contexts.set(park.slug, { fetchedAt: snapshot.fetchedAt, context });
  return context;
}

/** The park named by the `park` query parameter: 400 when missing, 404 when unknown. */
export function parkFromQuery(value: string | null): Park {
  if (value === null || value === '') throw new BadRequestError('missing park');
  const park = findPark(value);
  if (!park) throw new NotFoundError('unknown park');
  return park;
}

/**
 * Live waits for one park, from memory, Blobs or the upstream, with trend and forecast. With
 * `later` (the platform's `waitUntil`), what a refresh stores for other requests (the snapshot, the
 * day record, the profile) is finished after the answer.
 */
export async function getWaitTimes(
  park: Park,
  { later }: { later?: AfterAnswer | undefined } = {},
): Promise<WaitTimesResult> {
  const { fetchedAt, value, fromUpstream, maxAgeSeconds, fallback } = await relay.get(park, { later });
  const snapshot = { fetchedAt, rides: value };
  const { earlier, profile } = await contextOf(park, snapshot, fromUpstream, later);
  return {
    body: waitTimesBody(snapshot, earlier, { profile, timeZone: park.timezone }),
    maxAgeSeconds,
    fallback,
  };
}

/** Forgets everything kept in memory (tests start each case cold). */
export function resetWaitTimesMemory(): void {
  relay.reset();
  contexts.clear();
}

/**
 * The response body for a snapshot, the history sample about 30 minutes before it and, when
 * there is one, the park's forecaster profile with the park's time zone (without it the forecast
 * is persistence). Pure: every field describes the data as of `updatedAt`, fallback data included.
 */
export function waitTimesBody(
  snapshot: ParkSnapshot,
  earlier: HistorySample | null,
  learned?: { profile: WaitProfile | null; timeZone: string },
): WaitTimes {
  const profile = learned?.profile ?? null;
  const localMinute = learned ? minuteOfDay(snapshot.fetchedAt, learned.timeZone) : 0;
  const rides = snapshot.rides
    .map((ride) => ({
      name: ride.name,
      wait: ride.wait,
      open: ride.open,
      ...outlookOf(ride, earlier, profile, localMinute),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { updatedAt: snapshot.fetchedAt, source: 'queue-times.com', rides };
}
