/**
 * The time limits every test runs the product with, in place of the contract's 4 s Blobs deadline
 * and 5 s wait for a client's undecided attempts (README, "Configuration"). Why: the tests run on a
 * 2-core machine, often beside a second clone's whole suite, where they run 4 to 8 times slower
 * (vitest.config.ts) and one call to the local Blobs server has taken 12.5 to 19 s
 * (docs/consistency.md). At the contract's limits such a machine answers 503 and 429 where a quiet
 * one answers 200. The tests of the limits themselves set short ones of their own
 * (tests/request/platform/store.test.ts, rate-limit.test.ts).
 *
 * Given to in-process tests (vitest.config.ts), the sites and jobs they start (served-site.ts and
 * the job tests) and the browser tier's site (playwright.config.ts). `npm run verify:netlify` runs
 * alone, after the tests, with the product's own limits.
 */
export const SLOW_MACHINE_LIMITS = {
  BLOBS_DEADLINE_MS: '20000',
  RATE_LIMIT_WAIT_MS: '30000',
} as const;
