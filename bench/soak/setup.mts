import { parseArgs } from 'node:util';
import { PARKS } from '../../src/wait-times/parks.ts';

/** `npm run soak`: its options, constants, seeded randomness and the simulated clock as the harness sees it. */

export const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    /** Requests per second of the weighted mix (the owner, attackers and contact senders come on top). */
    rate: { type: 'string', default: '300' },
    /** Simulated seconds per real second. */
    speed: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'sample-seconds': { type: 'string', default: '10' },
    /** Writes a V8 CPU profile of the server into this directory (open it in Chrome DevTools). */
    'cpu-prof': { type: 'string' },
    /** Extra Node flags for the server, space-separated (`--node-flags=--max-old-space-size=128`). */
    'node-flags': { type: 'string', default: '' },
  },
});
export const positive = (name: keyof typeof args) => {
  const value = Number(args[name]);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
};
export const DURATION_MS = positive('minutes') * 60_000;
export const RATE = positive('rate');
export const SPEED = positive('speed');
export const SAMPLE_MS = positive('sample-seconds') * 1000;
export const TICK_MS = 250;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** Memory figures before this share of the run are warm-up. */
export const WARM_UP_SHARE = 1 / 3;
/** Contact sends are healthy again for the last quarter, so that the retry job can empty the outbox. */
export const SMTP_OUTAGE = { everyMs: 180_000, firstAtMs: 90_000, lastingMs: 20_000, untilShare: 0.75 };
export const REQUEST_TIMEOUT_MS = 30_000;
export const MAX_IN_FLIGHT = 256;

export const OWNER_TOKEN = 'soak-owner-token-5f0c2a9e41b7d3';
export const SITE_URL = 'http://localhost:4321';
export const OWNER_ADDRESS = '127.0.0.2';
export const GUESSER_ADDRESS = '127.0.3.1';
export const SPAMMER_ADDRESS = '127.0.3.2';
/** Wrong-token senders and contact senders come from pools of loopback addresses, one after another. */
export const addressPool = (prefix: string, size: number) =>
  Array.from({ length: size }, (_, i) => `${prefix}.${i + 1}`);
export const WRONG_TOKEN_POOL = addressPool('127.0.1', 50);
export const CONTACT_POOL = addressPool('127.0.2', 100);

// ---------------------------------------------------------------------------------------------
// Randomness (seeded, so a run can be repeated) and the simulated clock as the harness sees it

let seed = Math.floor(Number(args.seed)) >>> 0 || 1;
/** mulberry32 */
export function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
export const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
export const between = (low: number, high: number) => low + random() * (high - low);

/** How far the harness has moved the server's clock. */
export const clock = { offsetMs: 0 };
/** The server's clock (the harness moves it; an answer may lag one tick behind). */
export const simNow = () => Date.now() + clock.offsetMs;
export const rotating = (pool: readonly string[]) => {
  let next = 0;
  return () => pool[next++ % pool.length] as string;
};

/** A wait-times request for a random park. */
export const parkPath = () => `/api/wait-times?park=${pick(PARKS).slug}`;
