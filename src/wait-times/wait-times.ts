import { getConfig } from '../platform/config.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { RELAY_FRESH_FOR_MS, relayCache } from '../platform/relay-cache.ts';
import {
  createRecord,
  deleteRecords,
  listKeys,
  readRecord,
  timeKey,
  timeOfKey,
  writeRecord,
} from '../platform/store.ts';
import { HOUR_MS, MINUTE_MS } from '../platform/time-units.ts';
import { recordDay } from './day/day-store.ts';
import { type DayKind, dayKindOf } from './forecast/day-kind.ts';
import { trendAndForecastOf } from './forecast/forecast.ts';
import type { WaitProfile } from './forecast/wait-profile-schemas.ts';
import { parkHoursToday } from './hours/park-hours.ts';
import type { DayHours, ParkHours } from './hours/park-hours-schemas.ts';
import {
  type HistorySample,
  type ParkSnapshot,
  ParkSnapshotSchema,
  type SnapshotRide,
  UpstreamClaimSchema,
} from './park-snapshot-schemas.ts';
import { findPark, type Park } from './parks.ts';
import { fetchQueueTimes, ridesOf } from './queue-times.ts';
import { blobsHistory, type HistoryContext, readContext, recordSample, sampleOf } from './wait-history.ts';
import type { WaitTimes } from './wait-times-schemas.ts';

const latestKey = (slug: string) => `latest/${slug}`;
const CLAIMS_PREFIX = 'claims/';
const claimKey = (slug: string, periodStart: number) => `${CLAIMS_PREFIX}${slug}/${timeKey(periodStart)}`;

/**
 * The recorder (record-waits.ts) renews every open park's snapshot each period; a visitor's request
 * asks the upstream itself only when the snapshot is older than a period plus this margin (a late
 * or slow scheduled run), so a site without the schedule still answers current data.
 */
export const RECORDER_MARGIN_MS = 2 * MINUTE_MS;
/** Claims older than this are swept by the recorder: no instance still works in those periods. */
const CLAIMS_KEPT_MS = HOUR_MS;

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
  // One upstream request per park per 5-minute period across the recorder and every instance (docs/consistency.md).
  claim: (park, periodStart) =>
    createRecord('wait-times', claimKey(park.slug, periodStart), UpstreamClaimSchema, { claimedAt: Date.now() }),
  storedFreshForMs: RELAY_FRESH_FOR_MS + RECORDER_MARGIN_MS,
});

/** Each park's newest snapshot time and its history context, derived once per snapshot and kind of day. */
const contexts = new Map<string, { fetchedAt: number; kind: DayKind; context: Promise<HistoryContext> }>();

/**
 * The sample about 30 minutes before a snapshot and the profile of the day's kind (from `hours`):
 * recorded (with the day record) when this instance fetched the snapshot, else only read. Blobs
 * failing costs trend and forecast (`flat`, persistence), never the answer.
 */
function contextOf(
  park: Park,
  snapshot: ParkSnapshot,
  fromUpstream: boolean,
  later: AfterAnswer | undefined,
  hours: DayHours | null,
) {
  const kind = dayKindOf(hours, park.timezone);
  const known = contexts.get(park.slug);
  if (known?.fetchedAt === snapshot.fetchedAt && known.kind === kind) return known.context;
  const history = blobsHistory(park.slug);
  const context = (
    fromUpstream
      ? Promise.all([
          recordSample(history, sampleOf(snapshot), park.timezone, { later, hours }),
          finishLater(`record the day of ${park.slug}`, () => recordDay(park, snapshot), later),
        ]).then(([recorded]) => recorded)
      : readContext(history, snapshot.fetchedAt, kind)
  ).catch((error: Error): HistoryContext => {
    console.warn(`Wait times (${park.slug}): could not read or record the history: ${error.message}`);
    return { earlier: null, profile: null };
  });
  contexts.set(park.slug, { fetchedAt: snapshot.fetchedAt, kind, context });
  return context;
}

/**
 * The recorder's poll of one park: claims this period's upstream request and, when it got it, writes
 * what a visitor's refresh writes (snapshot, history sample, day, profile) through the same code.
 * Null when the period was already claimed (by a visitor, another instance or an overlapping run).
 * The recorder knows today's `hours` (it polls until just after closing): they choose the profile
 * (the kind of day) and teach each ride's closing.
 */
export async function recordWaitTimes(park: Park, hours: DayHours | null = null): Promise<HistoryContext | null> {
  const entry = await relay.record(park);
  return entry && contextOf(park, { fetchedAt: entry.fetchedAt, rides: entry.value }, true, undefined, hours);
}

/** Deletes the upstream claims of periods long past (one list, then the old keys). */
export async function sweepClaims(now: number): Promise<number> {
  const keys = await listKeys('wait-times', CLAIMS_PREFIX);
  const old = keys.filter((key) => now - timeOfKey(key.slice(key.lastIndexOf('/') + 1)) > CLAIMS_KEPT_MS);
  if (old.length > 0) await deleteRecords('wait-times', old);
  return old.length;
}

/** The park named by the `park` query parameter: 400 when missing, 404 when unknown. */
export function parkFromQuery(value: string | null): Park {
  if (value === null || value === '') throw badRequest('missing park');
  const park = findPark(value);
  if (!park) throw notFound('unknown park');
  return park;
}

/**
 * Live waits for one park with trend and forecast, how long they may be cached, the park's hours
 * today (null: unknown), asked for meanwhile, and the forecaster's profile they chose (the kind of
 * day; null when none could be read). With `later` (the platform's `waitUntil`) what a refresh
 * stores for other requests finishes after the answer.
 */
export async function getWaitTimes(
  park: Park,
  { later }: { later?: AfterAnswer | undefined } = {},
): Promise<{
  body: WaitTimes;
  maxAgeSeconds: number;
  fallback: boolean;
  hours: ParkHours | null;
  profile: WaitProfile | null;
}> {
  const [relayed, hours] = await Promise.all([relay.get(park, { later }), parkHoursToday(park, { later })]);
  const { fetchedAt, value, fromUpstream, maxAgeSeconds, fallback } = relayed;
  const snapshot = { fetchedAt, rides: value };
  const { earlier, profile } = await contextOf(park, snapshot, fromUpstream, later, hours);
  const body = waitTimesBody(snapshot, earlier, { profile, timeZone: park.timezone });
  return { body, maxAgeSeconds, fallback, hours, profile };
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
