import { type HistorySample, type ParkSnapshot, ParkSnapshotSchema } from '../schemas/park-snapshot.ts';
import type { WaitProfile } from '../schemas/wait-profile.ts';
import type { WaitTimes } from '../schemas/wait-times.ts';
import { recordDay } from '../wait-times/day-store.ts';
import { getConfig } from './config.ts';
import { BadRequestError, NotFoundError, UpstreamUnavailableError } from './errors.ts';
import { outlookOf } from './forecast.ts';
import { minuteOfDay } from './local-time.ts';
import { findPark, type Park } from './parks.ts';
import { fetchQueueTimes, ridesOf } from './queue-times.ts';
import { readRecord, writeRecord } from './store.ts';
import { blobsHistory, type HistoryContext, readContext, recordSample, sampleOf } from './wait-history.ts';

/** Upstream data is reused this long (SPEC 4.1: cached for 5 minutes). */
export const FRESH_FOR_MS = 5 * 60_000;
/** With the upstream failing, data up to this old is still served, with its honest `updatedAt`. */
export const FALLBACK_MAX_AGE_MS = 24 * 60 * 60_000;
/** After a failed fetch the upstream is left alone this long; callers get the fallback at once. */
export const UPSTREAM_BACKOFF_MS = 30_000;
/** How long a fallback answer may be cached: short, so recovery shows quickly. */
export const FALLBACK_CACHE_MS = 30_000;
/** How long an answer given while a refresh is under way may be cached: until the refresh lands. */
export const REFRESHING_CACHE_MS = 5_000;

export interface WaitTimesResult {
  body: WaitTimes;
  /** Seconds the answer may be reused by a cache. */
  maxAgeSeconds: number;
  /** True when the upstream failed and this is older data. */
  fallback: boolean;
}

interface Loaded extends HistoryContext {
  snapshot: ParkSnapshot;
}

/** Without Blobs there is no earlier sample and no profile: trend `flat`, forecast persistence. */
const NO_CONTEXT: HistoryContext = { earlier: null, profile: null };

interface ParkState {
  latest?: Loaded;
  inflight?: Promise<Loaded> | undefined;
  failedAt?: number | undefined;
}

const states = new Map<string, ParkState>();

/** The park named by the `park` query parameter: 400 when missing, 404 when unknown. */
export function parkFromQuery(value: string | null): Park {
  if (value === null || value === '') throw new BadRequestError('missing park');
  const park = findPark(value);
  if (!park) throw new NotFoundError('unknown park');
  return park;
}

/** Live waits for one park, from memory, Blobs or the upstream, with trend and forecast. */
export async function getWaitTimes(park: Park): Promise<WaitTimesResult> {
  const state = stateOf(park.slug);
  const now = Date.now();
  if (state.latest && now - state.latest.snapshot.fetchedAt < FRESH_FOR_MS) {
    return answer(park, state.latest, now, false);
  }
  if (state.failedAt !== undefined && now - state.failedAt < UPSTREAM_BACKOFF_MS) {
    return answer(park, await fallbackFor(park, state), now, true);
  }
  if (state.inflight && state.latest && now - state.latest.snapshot.fetchedAt <= FALLBACK_MAX_AGE_MS) {
    // A refresh is under way: everyone but its starter gets the last data now instead of queueing
    // behind a slow upstream (each stale cache hit would otherwise hold a render open until it lands).
    return answer(park, state.latest, now, false, REFRESHING_CACHE_MS);
  }
  // One upstream request per park at a time: concurrent callers share the one in flight.
  state.inflight ??= refresh(park, state).finally(() => {
    state.inflight = undefined;
  });
  try {
    const loaded = await state.inflight;
    return answer(park, loaded, Date.now(), false);
  } catch (error) {
    state.failedAt = Date.now();
    console.warn(`Wait times for ${park.slug}: ${(error as Error).message}`);
    return answer(park, await fallbackFor(park, state), Date.now(), true);
  }
}

/** Forgets everything kept in memory (tests start each case cold). */
export function resetWaitTimesMemory(): void {
  states.clear();
}

function stateOf(slug: string): ParkState {
  let state = states.get(slug);
  if (!state) {
    state = {};
    states.set(slug, state);
  }
  return state;
}

async function refresh(park: Park, state: ParkState): Promise<Loaded> {
  // Another instance may have fetched moments ago; its snapshot in Blobs saves an upstream call.
  if (!state.latest) {
    const stored = await bestEffort(() => readRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema));
    if (stored && Date.now() - stored.fetchedAt < FRESH_FOR_MS) {
      const context = await bestEffort(() => readContext(blobsHistory(park.slug), stored.fetchedAt));
      state.latest = { snapshot: stored, ...(context ?? NO_CONTEXT) };
      return state.latest;
    }
  }
  const upstream = await fetchQueueTimes(getConfig().WAIT_TIMES_UPSTREAM_URL, park.queueTimesId);
  const snapshot: ParkSnapshot = { fetchedAt: Date.now(), rides: ridesOf(upstream) };
  state.failedAt = undefined;
  const [, context] = await Promise.all([
    bestEffort(() => writeRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema, snapshot)),
    bestEffort(() => recordSample(blobsHistory(park.slug), sampleOf(snapshot), park.timezone)),
    bestEffort(() => recordDay(park, snapshot)),
  ]);
  state.latest = { snapshot, ...(context ?? NO_CONTEXT) };
  return state.latest;
}

async function fallbackFor(park: Park, state: ParkState): Promise<Loaded> {
  const now = Date.now();
  if (state.latest && now - state.latest.snapshot.fetchedAt <= FALLBACK_MAX_AGE_MS) return state.latest;
  const stored = await bestEffort(() => readRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema));
  if (stored && now - stored.fetchedAt <= FALLBACK_MAX_AGE_MS) {
    const context = await bestEffort(() => readContext(blobsHistory(park.slug), stored.fetchedAt));
    state.latest = { snapshot: stored, ...(context ?? NO_CONTEXT) };
    return state.latest;
  }
  const retryAfterMs = (state.failedAt ?? now) + UPSTREAM_BACKOFF_MS - now;
  throw new UpstreamUnavailableError(retryAfterMs / 1000);
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

function answer(park: Park, loaded: Loaded, now: number, fallback: boolean, cacheForMs?: number): WaitTimesResult {
  const { snapshot, earlier, profile } = loaded;
  const freshForMs = cacheForMs ?? (fallback ? FALLBACK_CACHE_MS : snapshot.fetchedAt + FRESH_FOR_MS - now);
  return {
    body: waitTimesBody(snapshot, earlier, { profile, timeZone: park.timezone }),
    maxAgeSeconds: Math.max(1, Math.ceil(freshForMs / 1000)),
    fallback,
  };
}

const latestKey = (slug: string) => `latest/${slug}`;

/** Blobs is an aid here, not a dependency: when it fails, waits are still served. */
async function bestEffort<T>(task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task();
  } catch (error) {
    console.warn(`Blobs unavailable for wait times: ${(error as Error).message}`);
    return undefined;
  }
}
