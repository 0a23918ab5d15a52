import { type HistorySample, type ParkSnapshot, ParkSnapshotSchema } from '../schemas/park-snapshot.ts';
import type { WaitTimes } from '../schemas/wait-times.ts';
import { getConfig } from './config.ts';
import { BadRequestError, NotFoundError, UpstreamUnavailableError } from './errors.ts';
import { forecastOf } from './forecast.ts';
import { findPark, type Park } from './parks.ts';
import { fetchQueueTimes, ridesOf } from './queue-times.ts';
import { readRecord, writeRecord } from './store.ts';
import { trendOf } from './trend.ts';
import { readEarlier, recordAndCompare } from './wait-history.ts';

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

interface Loaded {
  snapshot: ParkSnapshot;
  earlier: HistorySample | null;
}

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
    return answer(state.latest, now, false);
  }
  if (state.failedAt !== undefined && now - state.failedAt < UPSTREAM_BACKOFF_MS) {
    return answer(await fallbackFor(park, state), now, true);
  }
  if (state.inflight && state.latest && now - state.latest.snapshot.fetchedAt <= FALLBACK_MAX_AGE_MS) {
    // A refresh is under way: everyone but its starter gets the last data now instead of queueing
    // behind a slow upstream (each stale cache hit would otherwise hold a render open until it lands).
    return answer(state.latest, now, false, REFRESHING_CACHE_MS);
  }
  // One upstream request per park at a time: concurrent callers share the one in flight.
  state.inflight ??= refresh(park, state).finally(() => {
    state.inflight = undefined;
  });
  try {
    const loaded = await state.inflight;
    return answer(loaded, Date.now(), false);
  } catch (error) {
    state.failedAt = Date.now();
    console.warn(`Wait times for ${park.slug}: ${(error as Error).message}`);
    return answer(await fallbackFor(park, state), Date.now(), true);
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
      const earlier = await bestEffort(() => readEarlier(park.slug, stored.fetchedAt));
      state.latest = { snapshot: stored, earlier: earlier ?? null };
      return state.latest;
    }
  }
  const upstream = await fetchQueueTimes(getConfig().WAIT_TIMES_UPSTREAM_URL, park.queueTimesId);
  const snapshot: ParkSnapshot = { fetchedAt: Date.now(), rides: ridesOf(upstream) };
  state.failedAt = undefined;
  const [, earlier] = await Promise.all([
    bestEffort(() => writeRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema, snapshot)),
    bestEffort(() => recordAndCompare(park.slug, snapshot)),
  ]);
  state.latest = { snapshot, earlier: earlier ?? null };
  return state.latest;
}

async function fallbackFor(park: Park, state: ParkState): Promise<Loaded> {
  const now = Date.now();
  if (state.latest && now - state.latest.snapshot.fetchedAt <= FALLBACK_MAX_AGE_MS) return state.latest;
  const stored = await bestEffort(() => readRecord('wait-times', latestKey(park.slug), ParkSnapshotSchema));
  if (stored && now - stored.fetchedAt <= FALLBACK_MAX_AGE_MS) {
    const earlier = await bestEffort(() => readEarlier(park.slug, stored.fetchedAt));
    state.latest = { snapshot: stored, earlier: earlier ?? null };
    return state.latest;
  }
  const retryAfterMs = (state.failedAt ?? now) + UPSTREAM_BACKOFF_MS - now;
  throw new UpstreamUnavailableError(retryAfterMs / 1000);
}

/**
 * The response body for a snapshot and the history sample about 30 minutes before it. Pure, so
 * the OpenAPI examples are produced by the same code as real answers (src/openapi/examples.ts).
 */
export function waitTimesBody(snapshot: ParkSnapshot, earlier: HistorySample | null): WaitTimes {
  const rides = snapshot.rides
    .map((ride) => ({
      name: ride.name,
      wait: ride.wait,
      open: ride.open,
      trend: trendOf(ride, earlier?.waits[String(ride.id)]),
      forecast: forecastOf(ride),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { updatedAt: snapshot.fetchedAt, source: 'queue-times.com', rides };
}

function answer(loaded: Loaded, now: number, fallback: boolean, cacheForMs?: number): WaitTimesResult {
  const { snapshot, earlier } = loaded;
  const freshForMs = cacheForMs ?? (fallback ? FALLBACK_CACHE_MS : snapshot.fetchedAt + FRESH_FOR_MS - now);
  return {
    body: waitTimesBody(snapshot, earlier),
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
