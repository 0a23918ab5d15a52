import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RELAY_BACKOFF_MS,
  RELAY_FALLBACK_MAX_AGE_MS,
  RELAY_FRESH_FOR_MS,
  relayCache,
  type Timed,
} from '../../../src/platform/relay-cache.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const START = 1_700_000_000_000;

/** An upstream whose answers the test releases one by one, on a clock the test moves. */
function harness(
  options: {
    writesWaitFor?: Promise<void>;
    claim?: (key: string, periodStart: number) => Promise<boolean>;
    storedFreshForMs?: number;
    mayAsk?: () => Promise<boolean>;
  } = {},
) {
  let clock = START;
  const pending: { resolve(value: string): void; reject(error: Error): void }[] = [];
  const stored = new Map<string, Timed<string>>();
  const calls = { fetch: 0, readStored: 0, writeStored: 0 };
  let storageDown = false;
  const relay = relayCache<string, string>({
    label: 'Test relay',
    keyOf: (key) => key,
    fetch: () => {
      calls.fetch++;
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    readStored: async (key) => {
      calls.readStored++;
      if (storageDown) throw new Error('storage down');
      return stored.get(key) ?? null;
    },
    writeStored: async (key, timed) => {
      calls.writeStored++;
      await options.writesWaitFor;
      if (storageDown) throw new Error('storage down');
      stored.set(key, timed);
    },
    now: () => clock,
    ...(options.claim && { claim: options.claim, storedFreshForMs: options.storedFreshForMs }),
    ...(options.mayAsk && { mayAsk: options.mayAsk }),
  });
  return {
    relay,
    calls,
    stored,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
    setStorageDown: (down: boolean) => {
      storageDown = down;
    },
    /** Lets the oldest open upstream request answer (or fail) and the relay settle. */
    async settle(outcome: string | Error) {
      await vi.waitFor(() => expect(pending.length).toBeGreaterThan(0), { interval: 1 });
      const next = pending.shift();
      if (outcome instanceof Error) next?.reject(outcome);
      else next?.resolve(outcome);
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** A `get` that has already been answered (true) or is still waiting (false). */
    async isSettled(promise: Promise<unknown>) {
      let settled = false;
      promise.then(
        () => {
          settled = true;
        },
        () => {
          settled = true;
        },
      );
      await new Promise((resolve) => setImmediate(resolve));
      return settled;
    },
  };
}

/** A harness whose key `k` got `first` from the upstream at START. */
async function primed() {
  const h = harness();
  const first = h.relay.get('k');
  await h.settle('first');
  await first;
  return h;
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the relay cache', () => {
  it.each([
    // age of the data, whether the upstream is asked again, cache seconds of the answer
    { age: 0, refetched: false, maxAgeSeconds: 300 },
    { age: 4 * MINUTE, refetched: false, maxAgeSeconds: 60 },
    { age: RELAY_FRESH_FOR_MS - 500, refetched: false, maxAgeSeconds: 1 },
    { age: RELAY_FRESH_FOR_MS, refetched: true, maxAgeSeconds: 300 },
    { age: 3 * 60 * MINUTE, refetched: true, maxAgeSeconds: 300 },
  ])(
    'reuses data $age ms old: refetched $refetched, cacheable $maxAgeSeconds s',
    async ({ age, refetched, maxAgeSeconds }) => {
      const h = await primed();
      h.advance(age);
      const again = h.relay.get('k');
      if (refetched) await h.settle('second');
      const answer = await again;
      expect(h.calls.fetch).toBe(refetched ? 2 : 1);
      expect(answer).toMatchObject({ value: refetched ? 'second' : 'first', fallback: false, maxAgeSeconds });
      expect(answer.fetchedAt).toBe(refetched ? h.now() : START);
    },
  );

  it('makes one upstream request for many cold callers at once, and all get its data', async () => {
    const h = harness();
    const answers = Array.from({ length: 20 }, () => h.relay.get('k'));
    await h.settle('only');
    expect((await Promise.all(answers)).map((answer) => answer.value)).toEqual(Array(20).fill('only'));
    expect(h.calls.fetch).toBe(1);
  });

  it('keeps keys apart: each has its own request and data', async () => {
    const h = harness();
    const a = h.relay.get('a');
    const b = h.relay.get('b');
    await h.settle('for a');
    await h.settle('for b');
    expect([(await a).value, (await b).value]).toEqual(['for a', 'for b']);
  });

  it('answers the last data at once while a refresh is in flight, and the refresh to its starter', async () => {
    const h = await primed();
    h.advance(6 * MINUTE);
    const starter = h.relay.get('k');
    const during = h.relay.get('k');
    expect(await h.isSettled(during)).toBe(true);
    expect(await during).toMatchObject({ value: 'first', fetchedAt: START, fallback: false, maxAgeSeconds: 5 });
    expect(await h.isSettled(starter)).toBe(false);
    await h.settle('second');
    expect(await starter).toMatchObject({ value: 'second', fetchedAt: h.now(), fallback: false });
    expect(h.calls.fetch).toBe(2);
  });

  it('queues callers behind the refresh when the last data is too old to answer', async () => {
    const h = await primed();
    h.advance(RELAY_FALLBACK_MAX_AGE_MS + MINUTE);
    const starter = h.relay.get('k');
    const during = h.relay.get('k');
    expect(await h.isSettled(during)).toBe(false);
    await h.settle('second');
    expect((await during).value).toBe('second');
    expect((await starter).value).toBe('second');
  });

  it.each([
    // age of the last good data when the upstream fails, and what the caller gets
    { age: 6 * MINUTE, answered: true },
    { age: RELAY_FALLBACK_MAX_AGE_MS, answered: true },
    { age: RELAY_FALLBACK_MAX_AGE_MS + MINUTE, answered: false },
  ])('on an upstream failure with data $age ms old answers it: $answered', async ({ age, answered }) => {
    const h = await primed();
    h.advance(age);
    const again = h.relay.get('k');
    again.catch(() => {}); // asserted below, after the upstream failed
    await h.settle(new Error('upstream down'));
    if (answered) {
      expect(await again).toMatchObject({ value: 'first', fetchedAt: START, fallback: true, maxAgeSeconds: 30 });
    } else {
      await expect(again).rejects.toMatchObject({ status: 502, headers: { 'Retry-After': '30' } });
    }
  });

  it('leaves the upstream alone for the backoff after a failure, then asks again', async () => {
    const h = await primed();
    h.advance(6 * MINUTE);
    const failed = h.relay.get('k');
    await h.settle(new Error('upstream down'));
    await failed;
    h.advance(RELAY_BACKOFF_MS - SECOND);
    expect(await h.relay.get('k')).toMatchObject({ value: 'first', fallback: true });
    expect(h.calls.fetch).toBe(2);
    h.advance(SECOND);
    const recovered = h.relay.get('k');
    await h.settle('second');
    expect(await recovered).toMatchObject({ value: 'second', fallback: false });
    expect(h.calls.fetch).toBe(3);
  });

  it('with nothing to fall back on answers 502 whose Retry-After counts down the backoff', async () => {
    const h = harness();
    const cold = h.relay.get('k');
    cold.catch(() => {}); // asserted below, after the upstream failed
    await h.settle(new Error('upstream down'));
    await expect(cold).rejects.toMatchObject({ status: 502, message: 'upstream unavailable' });
    h.advance(12 * SECOND);
    await expect(h.relay.get('k')).rejects.toMatchObject({ headers: { 'Retry-After': '18' } });
    expect(h.calls.fetch).toBe(1);
  });

  it.each([
    // age of the data another instance stored, and whether it saves an upstream request
    { age: MINUTE, fetched: false },
    { age: RELAY_FRESH_FOR_MS, fetched: true },
  ])(
    'takes fresh data another instance stored ($age ms old) instead of asking: fetched $fetched',
    async ({ age, fetched }) => {
      const h = harness();
      h.stored.set('k', { fetchedAt: START - age, value: 'stored' });
      const answer = h.relay.get('k');
      if (fetched) await h.settle('fetched');
      expect((await answer).value).toBe(fetched ? 'fetched' : 'stored');
      expect(h.calls.fetch).toBe(fetched ? 1 : 0);
    },
  );

  it('falls back on stored data after a restart when the upstream fails', async () => {
    const h = harness();
    h.stored.set('k', { fetchedAt: START - 3 * 60 * MINUTE, value: 'stored' });
    const answer = h.relay.get('k');
    await h.settle(new Error('upstream down'));
    expect(await answer).toMatchObject({ value: 'stored', fetchedAt: START - 3 * 60 * MINUTE, fallback: true });
  });

  it('stores each fetch so that other instances can use it', async () => {
    const h = await primed();
    expect(h.stored.get('k')).toEqual({ fetchedAt: START, value: 'first' });
  });

  it('hands storing a fetch to `later`: the answer does not wait for it, and it lands afterwards', async () => {
    let openWrites = () => {};
    const h = harness({ writesWaitFor: new Promise<void>((resolve) => (openWrites = resolve)) });
    const handed: Promise<unknown>[] = [];
    const answer = h.relay.get('k', { later: (task) => handed.push(task) });
    await h.settle('live');
    expect(await answer).toMatchObject({ value: 'live', fallback: false });
    expect(handed).toHaveLength(1);
    expect(h.stored.has('k')).toBe(false);
    openWrites();
    await Promise.all(handed);
    expect(h.stored.get('k')).toEqual({ fetchedAt: START, value: 'live' });
  });

  it('answers from the upstream when storage fails on every call', async () => {
    const h = harness();
    h.setStorageDown(true);
    const answer = h.relay.get('k');
    await h.settle('live');
    expect(await answer).toMatchObject({ value: 'live', fallback: false });
    expect(h.calls.writeStored).toBe(1);
  });

  it('says whether the data came from its own upstream fetch or from shared storage', async () => {
    const h = harness();
    const cold = Array.from({ length: 3 }, () => h.relay.get('k'));
    await h.settle('first');
    expect((await Promise.all(cold)).map((answer) => answer.fromUpstream)).toEqual([true, true, true]);
    h.relay.reset();
    expect(await h.relay.get('k')).toMatchObject({ value: 'first', fromUpstream: false });
  });
});

describe('the relay cache with a recorder (claims per period)', () => {
  /** Claims as a write-once key store: the first to name a key and period gets it. */
  const claimsHarness = (claim?: (key: string, periodStart: number) => Promise<boolean>) => {
    const claims = new Set<string>();
    const h = harness({
      storedFreshForMs: RELAY_FRESH_FOR_MS + 2 * MINUTE,
      claim:
        claim ??
        (async (key, periodStart) => {
          const id = `${key}/${periodStart}`;
          if (claims.has(id)) return false;
          claims.add(id);
          return true;
        }),
    });
    return { ...h, claims };
  };

  it.each([
    // age of the recorded data, whether a visitor asks the upstream, cache seconds of the answer
    { age: 4 * MINUTE, asked: false, maxAgeSeconds: 60 },
    { age: 6 * MINUTE, asked: false, maxAgeSeconds: 5 },
    { age: 7 * MINUTE, asked: true, maxAgeSeconds: 300 },
  ])('answers recorded data $age ms old: asks the upstream $asked', async ({ age, asked, maxAgeSeconds }) => {
    const h = claimsHarness();
    h.stored.set('k', { fetchedAt: START - age, value: 'recorded' });
    const answer = h.relay.get('k');
    if (asked) await h.settle('fetched');
    expect(await answer).toMatchObject({ value: asked ? 'fetched' : 'recorded', maxAgeSeconds });
    expect(h.calls.fetch).toBe(asked ? 1 : 0);
  });

  it('leaves the upstream alone when the period is claimed elsewhere, answering the stored data', async () => {
    const h = claimsHarness();
    h.stored.set('k', { fetchedAt: START - 10 * MINUTE, value: 'old' });
    h.claims.add(`k/${Math.floor(START / RELAY_FRESH_FOR_MS) * RELAY_FRESH_FOR_MS}`);
    expect(await h.relay.get('k')).toMatchObject({ value: 'old', fallback: false, maxAgeSeconds: 5 });
    h.advance(2_000);
    expect(await h.relay.get('k')).toMatchObject({ value: 'old', maxAgeSeconds: 3 });
    expect(h.calls).toMatchObject({ fetch: 0, readStored: 1 });
  });

  it('answers stored data of any age for a subject not worth asking (a park closed by its hours), then looks again a period later', async () => {
    const h = harness({ mayAsk: async () => false });
    h.stored.set('k', { fetchedAt: START - 10 * 60 * MINUTE, value: 'last evening' });
    expect(await h.relay.get('k')).toMatchObject({ value: 'last evening', fallback: false, maxAgeSeconds: 300 });
    h.advance(4 * MINUTE);
    expect(await h.relay.get('k')).toMatchObject({ value: 'last evening', maxAgeSeconds: 60 });
    expect(h.calls).toMatchObject({ fetch: 0, readStored: 1 });
    h.advance(MINUTE);
    expect(await h.relay.get('k')).toMatchObject({ value: 'last evening' });
    expect(h.calls).toMatchObject({ fetch: 0, readStored: 2 });
  });

  it('asks a subject not worth asking when nothing at all is stored: an answer beats none', async () => {
    const h = harness({ mayAsk: async () => false });
    const answer = h.relay.get('k');
    await h.settle('first');
    expect(await answer).toMatchObject({ value: 'first', fromUpstream: true });
    expect(h.calls.fetch).toBe(1);
  });

  it('waits for the data of the instance holding the claim rather than answer 502 with nothing to show', async () => {
    const h = claimsHarness();
    h.claims.add(`k/${Math.floor(START / RELAY_FRESH_FOR_MS) * RELAY_FRESH_FOR_MS}`);
    const answer = h.relay.get('k');
    // The claimer stores its fetch a moment later.
    setTimeout(() => h.stored.set('k', { fetchedAt: START, value: 'theirs' }), 600);
    expect(await answer).toMatchObject({ value: 'theirs', fromUpstream: false });
    expect(h.calls.fetch).toBe(0);
  });

  it('asks the upstream when a claim cannot be made (Blobs down): the answer matters more', async () => {
    const h = claimsHarness(async () => {
      throw new Error('Blobs down');
    });
    const answer = h.relay.get('k');
    await h.settle('fetched');
    expect(await answer).toMatchObject({ value: 'fetched' });
  });
});
