import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRateLimit, hitRateLimit, type RateLimit, reserveAttempt } from '../../../src/platform/rate-limit.ts';
import { listKeys } from '../../../src/platform/store.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

const HOUR = 3_600_000;
const rule: RateLimit = { name: 'test', limit: 3, windowMs: HOUR };
/** The start of a period of `rule` (times are multiples of the window there). */
const PERIOD = 500_000 * HOUR;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  blobs = await startLocalBlobs();
});
afterAll(() => blobs.stop());

const outcomes = async (attempts: Promise<unknown>[]) => {
  const settled = await Promise.allSettled(attempts);
  return {
    admitted: settled.filter((result) => result.status === 'fulfilled').length,
    refused: settled.filter((result) => result.status === 'rejected' && result.reason?.status === 429).length,
  };
};

describe('the Blobs-backed rate limiter', () => {
  it('allows the limit, refuses the next with Retry-After from the oldest hit, and forgets hits after the window', async () => {
    const now = PERIOD + 1_000;
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, '203.0.113.1', now + i * 60_000);
    await expect(hitRateLimit(rule, '203.0.113.1', now + 5 * 60_000)).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': String((HOUR - 5 * 60_000) / 1000) },
    });
    // Another client is counted apart.
    await expect(hitRateLimit(rule, '203.0.113.2', now)).resolves.toBeUndefined();
    // After the window the first client may go again.
    await expect(hitRateLimit(rule, '203.0.113.1', now + HOUR)).resolves.toBeUndefined();
  });

  it('admits exactly the limit of 50 concurrent hits from one client', async () => {
    const now = PERIOD + 2 * HOUR;
    const result = await outcomes(Array.from({ length: 50 }, () => hitRateLimit(rule, '198.51.100.50', now)));
    expect(result).toEqual({ admitted: 3, refused: 47 });
  });

  it('counts an IPv6 client by its /64, so rotating addresses gains nothing', async () => {
    const now = PERIOD + 4 * HOUR;
    const result = await outcomes(
      Array.from({ length: 10 }, (_, i) => hitRateLimit(rule, `2001:db8:7:8::${i + 1}`, now)),
    );
    expect(result).toEqual({ admitted: 3, refused: 7 });
    await expect(hitRateLimit(rule, '2001:db8:7:9::1', now)).resolves.toBeUndefined();
  });

  it('keeps counting hits from the end of one period into the next, whatever the concurrency', async () => {
    const lateInPeriod = PERIOD + 7 * HOUR - 10_000;
    await hitRateLimit(rule, '192.0.2.30', lateInPeriod);
    await hitRateLimit(rule, '192.0.2.30', lateInPeriod + 1_000);
    // 20 seconds later a new period has begun; two of the three hits are still inside the window.
    const result = await outcomes(
      Array.from({ length: 20 }, () => hitRateLimit(rule, '192.0.2.30', lateInPeriod + 20_000)),
    );
    expect(result).toEqual({ admitted: 1, refused: 19 });
    await expect(checkRateLimit(rule, '192.0.2.30', { now: lateInPeriod + 30_000 })).rejects.toMatchObject({
      headers: { 'Retry-After': String((HOUR - 30_000) / 1000) },
    });
    // Once the oldest hit leaves the window, one more is admitted, and then none.
    await expect(hitRateLimit(rule, '192.0.2.30', lateInPeriod + HOUR)).resolves.toBeUndefined();
    await expect(hitRateLimit(rule, '192.0.2.30', lateInPeriod + HOUR + 1)).rejects.toMatchObject({ status: 429 });
  });

  it('refuses the first hit of a period that the previous one fills, and keeps no slot for it', async () => {
    const lateInPeriod = PERIOD + 9 * HOUR - 10_000;
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, '192.0.2.31', lateInPeriod + i);
    await expect(hitRateLimit(rule, '192.0.2.31', lateInPeriod + 20_000)).rejects.toMatchObject({ status: 429 });
    await expect(listKeys('rate-limits', `rate/test/${500_000 + 9}/`)).resolves.toEqual([]);
  });

  it('gives a released attempt back, and lets an attempt wait for those still being decided', async () => {
    const attempts: RateLimit = { name: 'attempts', limit: 3, windowMs: HOUR };
    const held = await Promise.all(Array.from({ length: 3 }, () => reserveAttempt(attempts, '192.0.2.40')));
    // A fourth finds every slot held by an undecided attempt: it waits instead of being refused…
    const fourth = reserveAttempt(attempts, '192.0.2.40');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // …and takes the slot that one of them gives back.
    await held[1]?.release();
    const admitted = await fourth;
    await Promise.all([held[0]?.confirm(), held[2]?.confirm(), admitted.confirm()]);
    // Every slot is a decided failure now: refused at once, counted from the oldest.
    await expect(reserveAttempt(attempts, '192.0.2.40')).rejects.toMatchObject({ status: 429 });
    await expect(checkRateLimit(attempts, '192.0.2.40')).rejects.toMatchObject({ status: 429 });
  });

  it('waits at most RATE_LIMIT_WAIT_MS for attempts still being decided, then answers 429', async () => {
    const attempts: RateLimit = { name: 'attempts-undecided', limit: 3, windowMs: HOUR };
    await Promise.all(Array.from({ length: 3 }, () => reserveAttempt(attempts, '192.0.2.41')));
    // The product waits 5 s, the tests 30 s (tests/support/slow-machine.ts); this one a second.
    const saved = process.env.RATE_LIMIT_WAIT_MS;
    process.env.RATE_LIMIT_WAIT_MS = '1000';
    try {
      const started = Date.now();
      await expect(reserveAttempt(attempts, '192.0.2.41')).rejects.toMatchObject({ status: 429 });
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(1000 - 250);
      // About the wait; the bound leaves a loaded machine seconds for the Blobs calls of the last look.
      expect(took).toBeLessThan(1000 + 9_000);
    } finally {
      if (saved === undefined) delete process.env.RATE_LIMIT_WAIT_MS;
      else process.env.RATE_LIMIT_WAIT_MS = saved;
    }
  });

  it('sweeps the hits of clients that never come back once they cannot count any more', async () => {
    const sweep: RateLimit = { name: 'sweep', limit: 2, windowMs: HOUR };
    await hitRateLimit(sweep, '192.0.2.1', PERIOD);
    await hitRateLimit(sweep, '192.0.2.2', PERIOD + 1);
    await checkRateLimit(sweep, '192.0.2.3', { now: PERIOD + HOUR });
    // The previous period still counts towards the window…
    await expect(listKeys('rate-limits', 'rate/sweep/')).resolves.toHaveLength(2);
    // …and is deleted once a period later.
    await checkRateLimit(sweep, '192.0.2.3', { now: PERIOD + 2 * HOUR });
    await expect(listKeys('rate-limits', 'rate/sweep/')).resolves.toEqual([]);
  });

  it('hands the sweep to work finished after the answer when the caller can do that', async () => {
    const sweep: RateLimit = { name: 'sweep-later', limit: 2, windowMs: HOUR };
    await hitRateLimit(sweep, '192.0.2.1', PERIOD);
    const later: Promise<unknown>[] = [];
    await checkRateLimit(sweep, '192.0.2.3', { now: PERIOD + 2 * HOUR, later: (task) => later.push(task) });
    expect(later).toHaveLength(1);
    await Promise.all(later);
    await expect(listKeys('rate-limits', 'rate/sweep-later/')).resolves.toEqual([]);
  });
});
