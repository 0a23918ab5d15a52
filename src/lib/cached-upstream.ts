import { UpstreamUnavailableError } from './errors.ts';

/**
 * A relay's caching rules, written once (the same behaviour as src/lib/wait-times.ts):
 * - a value is reused for `freshForMs`, from memory, or from Blobs when another instance
 *   fetched it moments ago;
 * - one upstream request per key at a time: concurrent callers share the one in flight;
 * - when the upstream fails, the last good value up to `fallbackMaxAgeMs` old is answered with
 *   its honest fetch time, and the upstream is left alone for `backoffMs`;
 * - with nothing to fall back on, 502 `upstream unavailable` with `Retry-After`.
 */
export interface CachedUpstreamOptions<T> {
  /** Names the relay in logs. */
  label: string;
  freshForMs: number;
  fallbackMaxAgeMs: number;
  backoffMs: number;
  /** How long a fallback answer may be cached: short, so that recovery shows quickly. */
  fallbackCacheMs: number;
  fetch(key: string): Promise<T>;
  /** The last good value in shared storage; a failure here is logged and ignored. */
  readStored(key: string): Promise<Timed<T> | null>;
  writeStored(key: string, value: Timed<T>): Promise<void>;
}

export interface Timed<T> {
  fetchedAt: number;
  value: T;
}

export interface CachedAnswer<T> extends Timed<T> {
  /** True when the upstream failed and this is older data. */
  fallback: boolean;
  /** Seconds the answer may be reused by a cache. */
  maxAgeSeconds: number;
}

interface KeyState<T> {
  latest?: Timed<T> | undefined;
  inflight?: Promise<Timed<T>> | undefined;
  failedAt?: number | undefined;
}

export interface CachedUpstream<T> {
  get(key: string): Promise<CachedAnswer<T>>;
  /** Forgets everything kept in memory (tests start each case cold). */
  reset(): void;
}

export function cachedUpstream<T>(options: CachedUpstreamOptions<T>): CachedUpstream<T> {
  const states = new Map<string, KeyState<T>>();

  const stateOf = (key: string): KeyState<T> => {
    let state = states.get(key);
    if (!state) {
      state = {};
      states.set(key, state);
    }
    return state;
  };

  const bestEffort = async <R>(task: () => Promise<R>): Promise<R | undefined> => {
    try {
      return await task();
    } catch (error) {
      console.warn(`Blobs unavailable for ${options.label}: ${(error as Error).message}`);
      return undefined;
    }
  };

  const answer = (timed: Timed<T>, now: number, fallback: boolean): CachedAnswer<T> => {
    const freshForMs = fallback ? options.fallbackCacheMs : timed.fetchedAt + options.freshForMs - now;
    return { ...timed, fallback, maxAgeSeconds: Math.max(1, Math.ceil(freshForMs / 1000)) };
  };

  const refresh = async (key: string, state: KeyState<T>): Promise<Timed<T>> => {
    // Another instance may have fetched moments ago; its value in Blobs saves an upstream call.
    if (!state.latest) {
      const stored = await bestEffort(() => options.readStored(key));
      if (stored && Date.now() - stored.fetchedAt < options.freshForMs) {
        state.latest = stored;
        return stored;
      }
    }
    const value = await options.fetch(key);
    const timed: Timed<T> = { fetchedAt: Date.now(), value };
    state.failedAt = undefined;
    state.latest = timed;
    await bestEffort(() => options.writeStored(key, timed));
    return timed;
  };

  const fallbackFor = async (key: string, state: KeyState<T>): Promise<Timed<T>> => {
    const now = Date.now();
    if (state.latest && now - state.latest.fetchedAt <= options.fallbackMaxAgeMs) return state.latest;
    const stored = await bestEffort(() => options.readStored(key));
    if (stored && now - stored.fetchedAt <= options.fallbackMaxAgeMs) {
      state.latest = stored;
      return stored;
    }
    const retryAfterMs = (state.failedAt ?? now) + options.backoffMs - now;
    throw new UpstreamUnavailableError(retryAfterMs / 1000);
  };

  return {
    async get(key) {
      const state = stateOf(key);
      const now = Date.now();
      if (state.latest && now - state.latest.fetchedAt < options.freshForMs) return answer(state.latest, now, false);
      if (state.failedAt !== undefined && now - state.failedAt < options.backoffMs) {
        return answer(await fallbackFor(key, state), now, true);
      }
      state.inflight ??= refresh(key, state).finally(() => {
        state.inflight = undefined;
      });
      try {
        return answer(await state.inflight, Date.now(), false);
      } catch (error) {
        state.failedAt = Date.now();
        console.warn(`${options.label}: ${(error as Error).message}`);
        return answer(await fallbackFor(key, state), Date.now(), true);
      }
    },
    reset() {
      states.clear();
    },
  };
}
