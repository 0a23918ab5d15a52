import { UpstreamUnavailableError } from './errors.ts';
import { type AfterAnswer, finishLater } from './http.ts';

/**
 * The one relay state machine: how the service passes on an upstream's data (wait times, the
 * photo feed) under CONTRACT.md "Freshness" and "Upstream down":
 * - data is reused for `RELAY_FRESH_FOR_MS`, from memory, or from shared storage (Blobs) when
 *   another instance fetched it moments ago;
 * - one upstream request per key at a time: concurrent callers share the one in flight, and once
 *   there is data, callers arriving during a refresh get that data at once instead of queueing
 *   behind a slow upstream;
 * - when the upstream fails, the last good data up to `RELAY_FALLBACK_MAX_AGE_MS` old is answered
 *   with its honest fetch time, and the upstream is left alone for `RELAY_BACKOFF_MS`;
 * - with nothing to fall back on, 502 `upstream unavailable` with `Retry-After`.
 * Shared storage is an aid, never a dependency: each of its failures is logged and ignored.
 */

const MINUTE = 60_000;
/** Upstream data is reused this long (SPEC 4.1: cached for 5 minutes). */
export const RELAY_FRESH_FOR_MS = 5 * MINUTE;
/** With the upstream failing, data up to this old is still answered, with its honest fetch time. */
export const RELAY_FALLBACK_MAX_AGE_MS = 24 * 60 * MINUTE;
/** After a failed fetch the upstream is left alone this long; callers get the fallback at once. */
export const RELAY_BACKOFF_MS = 30_000;
/** How long a fallback answer may be cached: short, so that recovery shows quickly. */
export const RELAY_FALLBACK_CACHE_MS = 30_000;
/** How long an answer given while a refresh is under way may be cached: until the refresh lands. */
export const RELAY_REFRESHING_CACHE_MS = 5_000;
/** The route cache (Netlify's CDN) answers aged-out data at once this long while it refreshes. */
export const RELAY_STALE_WHILE_REVALIDATE_SECONDS = 600;

/** Data with the time of the upstream fetch that produced it. */
export interface Timed<T> {
  fetchedAt: number;
  value: T;
}

export interface RelayOptions<S, T> {
  /** Names the relay in logs. */
  label: string;
  /** The memory key of a subject (a park, an account). */
  keyOf(subject: S): string;
  /** Asks the upstream; throws when it cannot give good data. */
  fetch(subject: S): Promise<T>;
  /** The last good data in shared storage. */
  readStored(subject: S): Promise<Timed<T> | null>;
  writeStored(subject: S, timed: Timed<T>): Promise<void>;
  /** The clock (unit tests pass a fake one). */
  now?: () => number;
}

export interface RelayAnswer<T> extends Timed<T> {
  /** True when this instance fetched the data from the upstream (false: read from shared storage). */
  fromUpstream: boolean;
  /** True when the upstream failed and this is older data. */
  fallback: boolean;
  /** Seconds the answer may be reused by a cache. */
  maxAgeSeconds: number;
}

export interface RelayCache<S, T> {
  /**
   * The subject's data. With `later` (the platform's `waitUntil`), storing what an upstream fetch
   * brought is finished after the answer instead of before it.
   */
  get(subject: S, options?: { later?: AfterAnswer | undefined }): Promise<RelayAnswer<T>>;
  /** Forgets everything kept in memory (tests start each case cold). */
  reset(): void;
}

interface Entry<T> extends Timed<T> {
  fromUpstream: boolean;
}

interface KeyState<T> {
  latest?: Entry<T> | undefined;
  inflight?: Promise<Entry<T>> | undefined;
  failedAt?: number | undefined;
}

type Kind = 'fresh' | 'refreshing' | 'fallback';

export function relayCache<S, T>(options: RelayOptions<S, T>): RelayCache<S, T> {
  const states = new Map<string, KeyState<T>>();
  const now = options.now ?? (() => Date.now());

  const stateOf = (key: string): KeyState<T> => {
    let state = states.get(key);
    if (!state) {
      state = {};
      states.set(key, state);
    }
    return state;
  };

  const nameOf = (subject: S) => `${options.label} (${options.keyOf(subject)})`;

  const readStored = async (subject: S): Promise<Entry<T> | undefined> => {
    try {
      const stored = await options.readStored(subject);
      return stored ? { ...stored, fromUpstream: false } : undefined;
    } catch (error) {
      console.warn(`${nameOf(subject)}: could not read stored data: ${(error as Error).message}`);
      return undefined;
    }
  };

  const answer = (entry: Entry<T>, at: number, kind: Kind): RelayAnswer<T> => {
    const cacheForMs =
      kind === 'fallback'
        ? RELAY_FALLBACK_CACHE_MS
        : kind === 'refreshing'
          ? RELAY_REFRESHING_CACHE_MS
          : entry.fetchedAt + RELAY_FRESH_FOR_MS - at;
    return { ...entry, fallback: kind === 'fallback', maxAgeSeconds: Math.max(1, Math.ceil(cacheForMs / 1000)) };
  };

  const refresh = async (subject: S, state: KeyState<T>, later?: AfterAnswer): Promise<Entry<T>> => {
    // Another instance may have fetched moments ago; its data in shared storage saves an upstream call.
    if (!state.latest) {
      const stored = await readStored(subject);
      if (stored && now() - stored.fetchedAt < RELAY_FRESH_FOR_MS) {
        state.latest = stored;
        return stored;
      }
    }
    const value = await options.fetch(subject);
    const timed: Timed<T> = { fetchedAt: now(), value };
    state.failedAt = undefined;
    await finishLater(`store the data of ${nameOf(subject)}`, () => options.writeStored(subject, timed), later);
    state.latest = { ...timed, fromUpstream: true };
    return state.latest;
  };

  const fallbackFor = async (subject: S, state: KeyState<T>): Promise<Entry<T>> => {
    const at = now();
    if (state.latest && at - state.latest.fetchedAt <= RELAY_FALLBACK_MAX_AGE_MS) return state.latest;
    const stored = await readStored(subject);
    if (stored && at - stored.fetchedAt <= RELAY_FALLBACK_MAX_AGE_MS) {
      state.latest = stored;
      return stored;
    }
    const retryAfterMs = (state.failedAt ?? at) + RELAY_BACKOFF_MS - at;
    throw new UpstreamUnavailableError(retryAfterMs / 1000);
  };

  return {
    async get(subject, { later } = {}) {
      const state = stateOf(options.keyOf(subject));
      const at = now();
      const { latest } = state;
      if (latest && at - latest.fetchedAt < RELAY_FRESH_FOR_MS) return answer(latest, at, 'fresh');
      if (state.failedAt !== undefined && at - state.failedAt < RELAY_BACKOFF_MS) {
        return answer(await fallbackFor(subject, state), at, 'fallback');
      }
      if (state.inflight && latest && at - latest.fetchedAt <= RELAY_FALLBACK_MAX_AGE_MS) {
        // Everyone but the refresh's starter gets the last data now instead of queueing behind a
        // slow upstream (each stale route-cache hit would otherwise hold a render open until it lands).
        return answer(latest, at, 'refreshing');
      }
      // A refresh that callers share finishes its storing with its starter's `later`.
      state.inflight ??= refresh(subject, state, later).finally(() => {
        state.inflight = undefined;
      });
      try {
        return answer(await state.inflight, now(), 'fresh');
      } catch (error) {
        state.failedAt = now();
        console.warn(`${nameOf(subject)}: ${(error as Error).message}`);
        return answer(await fallbackFor(subject, state), now(), 'fallback');
      }
    },
    reset() {
      states.clear();
    },
  };
}
