import { UpstreamError, upstreamUnavailable } from './errors.ts';
import { type AfterAnswer, finishLater } from './http.ts';
import { HOUR_MS, MINUTE_MS } from './time-units.ts';

/**
 * The one relay: how the service passes on an upstream's data (wait times, park hours, the photo feed) under
 * docs/contract.md, "Wait times". Data is reused for `RELAY_FRESH_FOR_MS`, from memory
 * or from shared storage (Blobs) when another instance fetched it moments ago; one upstream request
 * per key is in flight, and callers arriving during a refresh of known data get that data at once.
 * When the upstream fails, the last good data up to `RELAY_FALLBACK_MAX_AGE_MS` old is answered with
 * its honest fetch time and the upstream is left alone for `RELAY_BACKOFF_MS`; with nothing to fall
 * back on, 502 with `Retry-After`. Shared storage is an aid: its failures are logged and ignored.
 * With `claim`, every instance and a scheduled recorder share one upstream request per key per
 * period of the clock (:00, :05, …): whoever claims the period asks, the others answer stored data.
 * With `mayAsk`, a subject the upstream has nothing new for (a park closed for the night) is
 * answered from what is stored, however old, and asked only when nothing is.
 */

/** Upstream data is reused this long (docs/contract.md: 5 minutes). */
export const RELAY_FRESH_FOR_MS = 5 * MINUTE_MS;
export const RELAY_FALLBACK_MAX_AGE_MS = 24 * HOUR_MS;
export const RELAY_BACKOFF_MS = 30_000;
/** Cache lifetimes: a fallback short, so that recovery shows quickly; an answer during a refresh until it lands. */
const FALLBACK_CACHE_MS = 30_000;
const REFRESHING_CACHE_MS = 5_000;
/** How often, and how many times, stored data is looked for while another instance fetches it: 10 s. */
const CLAIMED_LOOK_EVERY_MS = 250;
const CLAIMED_LOOKS = 40;
/** The route cache (Netlify's CDN) answers aged-out data at once this long while it refreshes. */
export const RELAY_STALE_WHILE_REVALIDATE_SECONDS = 600;

/** Data with the time of the upstream fetch that produced it. */
export type Timed<T> = { fetchedAt: number; value: T };
type Entry<T> = Timed<T> & { fromUpstream: boolean };
/** `fallback`: the upstream failed and this is older data; `maxAgeSeconds`: how long a cache may reuse it. */
type RelayAnswer<T> = Entry<T> & { fallback: boolean; maxAgeSeconds: number };

/** How long data is reused, kept as a fallback, and the upstream left alone after a failure. */
export interface RelayTiming {
  freshForMs: number;
  fallbackMaxAgeMs: number;
  backoffMs: number;
}
const RELAY_TIMING: RelayTiming = {
  freshForMs: RELAY_FRESH_FOR_MS,
  fallbackMaxAgeMs: RELAY_FALLBACK_MAX_AGE_MS,
  backoffMs: RELAY_BACKOFF_MS,
};

export function relayCache<S, T>(options: {
  label: string;
  /** Defaults: the wait-time relay's (above). */
  timing?: RelayTiming;
  /** The memory key of a subject (a park, an account). */
  keyOf(subject: S): string;
  /** Asks the upstream; throws when it cannot give good data. */
  fetch(subject: S): Promise<T>;
  readStored(subject: S): Promise<Timed<T> | null>;
  writeStored(subject: S, timed: Timed<T>): Promise<void>;
  /**
   * Claims the period starting at `periodStart` for one upstream request (a write-once key):
   * false when another instance or the recorder already has it. A claim that fails is granted.
   */
  claim?(subject: S, periodStart: number): Promise<boolean>;
  /** Stored data younger than this is answered without asking the upstream (a recorder renews it). */
  storedFreshForMs?: number;
  /** Whether the upstream is worth asking now; when not, stored data of any age is answered. */
  mayAsk?(subject: S): Promise<boolean>;
  /** The time data carries itself (a body's `updatedAt`), else the moment the fetch came back. */
  timeOf?(value: T): number;
  /** The clock (unit tests pass a fake one). */
  now?: () => number;
}) {
  type State = { latest?: Entry<T>; inflight?: Promise<Entry<T>>; failedAt?: number; recheckAt?: number };
  const states = new Map<string, State>();
  const now = options.now ?? (() => Date.now()); // read when called: tests fake `Date`
  const { freshForMs, fallbackMaxAgeMs, backoffMs } = options.timing ?? RELAY_TIMING;
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

  const answer = (entry: Entry<T>, cacheMs: number, fallback = false): RelayAnswer<T> => {
    return { ...entry, fallback, maxAgeSeconds: Math.max(1, Math.ceil(cacheMs / 1000)) };
  };
  const fresh = (entry: Entry<T>) => answer(entry, entry.fetchedAt + freshForMs - now());

  const stateOf = (subject: S): State => {
    const key = options.keyOf(subject);
    const state = states.get(key) ?? {};
    states.set(key, state);
    return state;
  };
  const periodStart = () => Math.floor(now() / freshForMs) * freshForMs;

  const fetchAndStore = async (subject: S, state: State, later?: AfterAnswer): Promise<Entry<T>> => {
    const value = await options.fetch(subject);
    const timed: Timed<T> = { value, fetchedAt: options.timeOf?.(value) ?? now() };
    delete state.failedAt;
    await finishLater(`store the data of ${nameOf(subject)}`, () => options.writeStored(subject, timed), later);
    state.latest = { ...timed, fromUpstream: true };
    return state.latest;
  };

  /** Data a little past fresh (the recorder's next write is due) is answered briefly, then looked for again. */
  const keepBriefly = (state: State, entry: Entry<T>) => {
    state.latest = entry;
    if (now() - entry.fetchedAt >= freshForMs) state.recheckAt = now() + REFRESHING_CACHE_MS;
    return entry;
  };

  /**
   * With nothing to answer while another instance holds the period's claim, its data is looked for
   * until it lands (the claimer stores it within the upstream's 8 s budget), rather than a 502.
   */
  const storedOnceLanded = async (subject: S): Promise<Entry<T> | undefined> => {
    for (let look = 0; look < CLAIMED_LOOKS; look++) {
      await new Promise((resolve) => setTimeout(resolve, CLAIMED_LOOK_EVERY_MS));
      const stored = await readStored(subject);
      if (stored) return stored;
    }
    return undefined;
  };

  const refresh = async (subject: S, state: State, later?: AfterAnswer): Promise<Entry<T>> => {
    // Another instance or the recorder may have fetched moments ago: its stored data saves an upstream call.
    const stored = await readStored(subject);
    const newest = stored && (!state.latest || stored.fetchedAt > state.latest.fetchedAt) ? stored : state.latest;
    if (newest && now() - newest.fetchedAt < (options.storedFreshForMs ?? freshForMs)) {
      return keepBriefly(state, newest);
    }
    if (newest && options.mayAsk && !(await options.mayAsk(subject))) {
      // Nothing new upstream: the stored data stands for a period, then is looked for again.
      state.latest = newest;
      state.recheckAt = now() + freshForMs;
      return newest;
    }
    const claimed = await (options.claim?.(subject, periodStart()) ?? Promise.resolve(true)).catch((error: Error) => {
      console.warn(`${nameOf(subject)}: could not claim the upstream request, asking anyway: ${error.message}`);
      return true;
    });
    if (!claimed) {
      const landed = newest ?? (await storedOnceLanded(subject));
      if (landed) return keepBriefly(state, landed);
      throw new UpstreamError('another instance is asking the upstream for this period');
    }
    return fetchAndStore(subject, state, later);
  };

  const fallbackFor = async (subject: S, state: State): Promise<RelayAnswer<T>> => {
    const at = now();
    const young = (entry?: Entry<T>) => entry && at - entry.fetchedAt <= fallbackMaxAgeMs;
    const entry = young(state.latest) ? state.latest : await readStored(subject);
    if (!entry || !young(entry)) {
      throw upstreamUnavailable(((state.failedAt ?? at) + backoffMs - at) / 1000);
    }
    state.latest = entry;
    return answer(entry, FALLBACK_CACHE_MS, true);
  };

  return {
    /** The subject's data; with `later` (the platform's `waitUntil`) storing a fetch finishes after the answer. */
    async get(subject: S, { later }: { later?: AfterAnswer | undefined } = {}): Promise<RelayAnswer<T>> {
      const state = stateOf(subject);
      const at = now();
      const { latest, failedAt, recheckAt } = state;
      if (latest && at - latest.fetchedAt < freshForMs) return fresh(latest);
      if (latest && recheckAt !== undefined && at < recheckAt) return answer(latest, recheckAt - at);
      if (failedAt !== undefined && at - failedAt < backoffMs) return fallbackFor(subject, state);
      if (state.inflight && latest && at - latest.fetchedAt <= fallbackMaxAgeMs) {
        // Everyone but the refresh's starter gets the last data now instead of queueing behind a
        // slow upstream (a stale route-cache hit would otherwise hold a render open until it lands).
        return answer(latest, REFRESHING_CACHE_MS);
      }
      // A refresh that callers share finishes its storing with its starter's `later`.
      state.inflight ??= refresh(subject, state, later).finally(() => {
        delete state.inflight;
      });
      try {
        const entry = await state.inflight;
        return state.recheckAt !== undefined && now() < state.recheckAt
          ? answer(entry, state.recheckAt - now())
          : fresh(entry);
      } catch (error) {
        state.failedAt = now();
        console.warn(`${nameOf(subject)}: ${(error as Error).message}`);
        return fallbackFor(subject, state);
      }
    },
    /** Forgets everything kept in memory (tests start each case cold). */
    reset: () => states.clear(),
  };
}
