import { getConfig } from '../platform/config.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { relayCache } from '../platform/relay-cache.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { recordDay } from './day/day-store.ts';
import { trendAndForecastOf } from './forecast/forecast.ts';
import type { WaitProfile } from './forecast/wait-profile-schemas.ts';
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

const latestKey = (slug: string) => `latest/${slug}`;

const relay = relayCache<Park, SnapshotRide[]>({
  label: 'Wait times',
  keyOf: (park) => park.slug,
  fetch: async (park) => ridesOf(await fetchQueueTimes(getConfig().WAIT_TIMES_UPSTREAM_URL, park.queueTimesId)),
  async readStored(park) {
    const stored = await readRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema);
    return stored && { fetchedAt: stored.fetchedAt, value: stored.rides };
  },
  writeStored: (park, { fetchedAt, value }) =>
    writeRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema, { fetchedAt, rides: value }),
});

/** Each park's newest snapshot time and its history context, derived once per snapshot. */
const contexts = new Map<string, { fetchedAt: number; context: Promise<HistoryContext> }>();

/**
 * The sample about 30 minutes before a snapshot and the profile: recorded (with the day record)
 * when this instance fetched the snapshot, else only read. Blobs failing costs trend and
 * forecast (`flat`, persistence), never the answer.
 */
function contextOf(park: Park, snapshot: ParkSnapshot, fromUpstream: boolean, later: AfterAnswer | undefined) {
  const known = contexts.get(park.slug);
  if (known?.fetchedAt === snapshot.fetchedAt) return known.context;
  const history = blobsHistory(park.slug);
  const context = (
    fromUpstream
      ? Promise.all([
          recordSample(history, sampleOf(snapshot), park.timezone, later),
          finishLater(`record the day of ${park.slug}`, () => recordDay(park, snapshot), later),
        ]).then(([recorded]) => recorded)
      : readContext(history, snapshot.fetchedAt)
  ).catch((error: Error): HistoryContext => {
    console.warn(`Wait times (${park.slug}): could not read or record the history: ${error.message}`);
    return { earlier: null, profile: null };
  });
  contexts.set(park.slug, { fetchedAt: snapshot.fetchedAt, context });
  return context;
}

/** The park named by the `park` query parameter: 400 when missing, 404 when unknown. */
export function parkFromQuery(value: string | null): Park {
  if (value === null || value === '') throw badRequest('missing park');
  const park = findPark(value);
  if (!park) throw notFound('unknown park');
  return park;
}

/**
 * Live waits for one park with trend and forecast, and how long they may be cached. With `later`
 * (the platform's `waitUntil`) what a refresh stores for other requests finishes after the answer.
 */
export async function getWaitTimes(park: Park, { later }: { later?: AfterAnswer | undefined } = {}) {
  const { fetchedAt, value, fromUpstream, maxAgeSeconds, fallback } = await relay.get(park, { later });
  const snapshot = { fetchedAt, rides: value };
  const { earlier, profile } = await contextOf(park, snapshot, fromUpstream, later);
  return { body: waitTimesBody(snapshot, earlier, { profile, timeZone: park.timezone }), maxAgeSeconds, fallback };
}

/** By name in code-unit order: the same order on every server, whatever its locale. */
export const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Forgets everything kept in memory (tests start each case cold). */
export function resetWaitTimesMemory(): void {
  relay.reset();
  contexts.clear();
}

/**
 * The body for a snapshot, the sample about 30 minutes before it and, when known, the park's
 * profile and time zone (without them the forecast is persistence). Pure: fallback data included,
 * every field describes the data as of `updatedAt`.
 */
export function waitTimesBody(
  snapshot: ParkSnapshot,
  earlier: HistorySample | null,
  { profile, timeZone }: { profile: WaitProfile | null; timeZone: string } = { profile: null, timeZone: 'UTC' },
): WaitTimes {
  const context = { profile, timeZone, at: snapshot.fetchedAt, earlier };
  const rides = snapshot.rides
    .map(({ id, ...ride }) => ({ ...ride, ...trendAndForecastOf(context, { id, ...ride }) }))
    .sort(byName);
  return { updatedAt: snapshot.fetchedAt, source: 'queue-times.com', rides };
}
