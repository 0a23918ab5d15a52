import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitTimes } from '../../../src/wait-times/wait-times-schemas.ts';
import { isDay, isWaitTimes, type Outcome, Poller, retryAfterMs } from '../../../src/widget/polling.ts';

const MINUTE = 60_000;
/** The most a poll may wait beyond its due time, so that readers do not all ask at once. */
const SPREAD = 5_000;

const waitTimes = (updatedAt: number): WaitTimes => ({ updatedAt, source: 'queue-times.com', rides: [] });

/**
 * A poller on a fake clock whose requests get new data from now (unless `answerWith` says
 * otherwise), recording when each request went out, what its element was told and the page's state.
 */
function polling() {
  const page = { hidden: false, offline: false };
  const asked: number[] = [];
  const told: (Outcome | undefined)[] = [];
  const start = Date.now();
  let answer = (_signal: AbortSignal): Promise<Outcome> => Promise.resolve({ data: waitTimes(Date.now()) });
  const poller = new Poller({
    request: (signal) => {
      asked.push(Date.now() - start);
      return answer(signal);
    },
    update: (outcome) => told.push(outcome),
    hidden: () => page.hidden,
    offline: () => page.offline,
  });
  const answerWith = (next: typeof answer) => {
    answer = next;
  };
  return { page, asked, told, poller, answerWith };
}

/** A request that never answers; it rejects with the abort reason when cut off. */
const hanging = (signal: AbortSignal) =>
  new Promise<Outcome>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 6, 4, 14) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Poller: when the widget asks the API again', () => {
  it.each([
    ['two minutes old: when it turns 5 minutes old', -2 * MINUTE, 3 * MINUTE],
    ['ten minutes old: no sooner than a minute after the last request', -10 * MINUTE, MINUTE],
    ['from a clock ahead of the page: no later than 5 minutes', 3 * MINUTE, 5 * MINUTE],
  ])('asks at once, then, with data %s', async (_case, age, due) => {
    const state = polling();
    state.answerWith(() => Promise.resolve({ data: waitTimes(Date.now() + age) }));
    state.poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.asked).toEqual([0]);
    expect(state.told.at(-1)).toEqual({ data: waitTimes(Date.now() + age) });
    await vi.advanceTimersByTimeAsync(due - 1);
    expect(state.asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SPREAD + 1);
    expect(state.asked).toHaveLength(2);
    expect(state.asked[1]).toBeGreaterThanOrEqual(due);
  });

  it('backs off after failures from 1 to 2, 4 and at most 5 minutes, and starts over after a success', async () => {
    const state = polling();
    state.answerWith(() => Promise.resolve({ problem: 'failed' }));
    state.poller.start();
    await vi.advanceTimersByTimeAsync(17 * MINUTE);
    expect(state.asked).toEqual([0, 1, 3, 7, 12, 17].map((minutes) => minutes * MINUTE));
    expect(state.told.at(-1)).toEqual({ problem: 'failed' });

    state.answerWith(() => Promise.resolve({ data: waitTimes(Date.now() - 10 * MINUTE) }));
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    state.answerWith(() => Promise.resolve({ problem: 'failed' }));
    await vi.advanceTimersByTimeAsync(MINUTE + SPREAD);
    const [success, failure] = state.asked.slice(-2);
    expect(success).toBe(22 * MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(state.asked.at(-1)).toBe((failure ?? 0) + MINUTE);
  });

  it('waits as long as the server’s Retry-After when that is longer than the backoff', async () => {
    const state = polling();
    state.answerWith(() => Promise.resolve({ problem: 'failed', retryAfter: 10 * MINUTE }));
    state.poller.start();
    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1);
    expect(state.asked).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.asked).toEqual([0, 10 * MINUTE]);
  });

  it('counts a request that throws as failed, or offline when the browser went offline, and keeps trying', async () => {
    const state = polling();
    state.answerWith(() => Promise.reject(new TypeError('network error')));
    state.poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.told.at(-1)).toMatchObject({ problem: 'failed', error: new TypeError('network error') });
    state.page.offline = true;
    state.poller.schedule(0);
    await vi.advanceTimersByTimeAsync(MINUTE);
    // Offline, nothing is asked: the poller says so and looks again later.
    expect(state.asked).toEqual([0]);
    expect(state.told.at(-1)).toEqual({ problem: 'offline', retryAfter: MINUTE });
  });

  it('cuts a request off after 15 seconds and counts it as failed', async () => {
    const state = polling();
    state.answerWith(hanging);
    state.poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.poller.loading).toBe(true);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(state.poller.loading).toBe(false);
    const outcome = state.told.at(-1);
    expect(outcome).toMatchObject({ problem: 'failed' });
    expect(outcome && 'error' in outcome && (outcome.error as Error).name).toBe('TimeoutError');
  });

  it('back online, asks at once, but never within a minute of the last request', async () => {
    const state = polling();
    state.page.offline = true;
    state.poller.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(state.asked).toEqual([]);
    state.page.offline = false;
    state.poller.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(state.asked).toEqual([30_000]);
    state.poller.schedule(0);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(state.asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.asked).toEqual([30_000, 90_000]);
  });

  it('asks nothing while the page is hidden, and catches up as soon as it is shown', async () => {
    const state = polling();
    state.poller.start();
    await vi.advanceTimersByTimeAsync(0);
    state.page.hidden = true;
    state.poller.arm();
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(state.asked).toEqual([0]);
    state.page.hidden = false;
    state.poller.arm();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.asked).toEqual([0, 20 * MINUTE]);
  });

  it('with saved data younger than 5 minutes, asks nothing until it turns 5 minutes old', async () => {
    const state = polling();
    state.poller.reset(Date.now() - MINUTE);
    state.poller.start();
    await vi.advanceTimersByTimeAsync(4 * MINUTE - 1);
    expect(state.asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(SPREAD + 1);
    expect(state.asked).toHaveLength(1);
  });

  it('once stopped, abandons the request on its way and asks nothing more', async () => {
    const state = polling();
    let signal: AbortSignal | undefined;
    state.answerWith((given) => {
      signal = given;
      return hanging(given);
    });
    state.poller.start();
    await vi.advanceTimersByTimeAsync(0);
    state.poller.stop();
    state.poller.schedule(0);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(signal?.aborted).toBe(true);
    expect(state.asked).toEqual([0]);
    expect(state.told).toEqual([undefined]); // told it started, never how it ended
  });
});

describe('retryAfterMs: Retry-After in milliseconds', () => {
  it.each([
    ['seconds', '120', 120_000],
    ['an HTTP date', new Date(Date.UTC(2026, 6, 4, 14, 1)).toUTCString(), MINUTE],
    ['a date in the past', new Date(Date.UTC(2026, 6, 4, 13)).toUTCString(), 0],
    ['nothing', null, 0],
    ['something unreadable', 'soon', 0],
  ])('reads %s', (_case, value, expected) => {
    expect(retryAfterMs(value)).toBe(expected);
  });
});

describe('the checks of a received or saved body', () => {
  it('take the bodies the element reads and refuse others', () => {
    const ride = { name: 'Soarin’', wait: 5, open: true, trend: 'flat', forecast: 5 };
    expect(isWaitTimes({ updatedAt: 1, source: 'queue-times.com', rides: [ride] })).toBe(true);
    expect(isWaitTimes({ updatedAt: 1, rides: [{ ...ride, wait: '5' }] })).toBe(false);
    expect(isWaitTimes({ rides: [] })).toBe(false);
    const day = { timeZone: 'Europe/Paris', times: [], outlookTimes: [], dayEndsAt: 1 };
    expect(isDay({ ...day, rides: [{ name: 'Soarin’', waits: [], usual: [], outlook: [] }] })).toBe(true);
    expect(isDay({ ...day, rides: [null] })).toBe(false);
    expect(isDay(null)).toBe(false);
  });

  it('take a day with hours or none (saved before the hours: unknown), and refuse broken hours', () => {
    const day = { timeZone: 'Europe/Paris', times: [], outlookTimes: [], dayEndsAt: 1, rides: [] };
    expect(isDay({ ...day, hours: { opensAt: 1, closesAt: 2, extras: [] } })).toBe(true);
    expect(isDay({ ...day, hours: null })).toBe(true);
    expect(isDay(day)).toBe(true);
    expect(isDay({ ...day, hours: { opensAt: '09:00', closesAt: 2 } })).toBe(false);
    expect(isDay({ ...day, timeZone: undefined })).toBe(false);
  });

  it('refuse a day saved before the outlook, so the next answer replaces it', () => {
    const ride = { name: 'Soarin’', waits: [], usual: [] };
    expect(isDay({ times: [], dayEndsAt: 1, rides: [ride] })).toBe(false);
    expect(isDay({ times: [], outlookTimes: [], dayEndsAt: 1, rides: [ride] })).toBe(false);
  });
});
