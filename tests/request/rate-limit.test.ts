import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRateLimit, hitRateLimit, recordHit } from '../../src/lib/rate-limit.ts';
import { listKeys } from '../../src/lib/store.ts';
import { startLocalBlobs } from '../support/local-blobs.ts';

const HOUR = 3_600_000;
const rule = { name: 'test', limit: 3, windowMs: HOUR };
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  blobs = await startLocalBlobs();
});
afterAll(() => blobs.stop());

describe('the Blobs-backed rate limiter', () => {
  it('allows the limit, refuses the next with Retry-After, and forgets hits after the window', async () => {
    const now = 1_800_000_000_000;
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, '203.0.113.1', now + i);
    await expect(hitRateLimit(rule, '203.0.113.1', now + 10)).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': String(Math.ceil((HOUR - 10) / 1000)) },
    });
    // Another client is counted apart.
    await expect(hitRateLimit(rule, '203.0.113.2', now + 10)).resolves.toBeUndefined();
    // After the window the first client may go again.
    await expect(hitRateLimit(rule, '203.0.113.1', now + HOUR + 5)).resolves.toBeUndefined();
  });

  it('sweeps the expired hits of clients that never come back', async () => {
    const sweep = { name: 'sweep', limit: 2, windowMs: HOUR };
    const now = 2_000_000_000_000;
    await recordHit(sweep, '192.0.2.1', now);
    await recordHit(sweep, '192.0.2.2', now);
    // A window later, a third client's check sweeps the first two clients' hits away.
    await checkRateLimit(sweep, '192.0.2.3', now + HOUR + 1);
    await expect(listKeys('rate-limits', 'rate/sweep/')).resolves.toEqual([]);
  });

  it('counts hits written at the same moment by concurrent callers', async () => {
    const now = 1_900_000_000_000;
    await Promise.all(Array.from({ length: 5 }, () => recordHit(rule, '198.51.100.7', now)));
    await expect(checkRateLimit(rule, '198.51.100.7', now + 1)).rejects.toMatchObject({ status: 429 });
  });
});
