import { hash } from 'node:crypto';
import { clientIdentity } from './client-identity.ts';
import { getConfig } from './config.ts';
import { tooManyRequests } from './errors.ts';
import { type AfterAnswer, finishLater } from './http.ts';
import { createRecord, deleteRecords, listKeys, readRecord, writeRecord } from './store.ts';
import { MINUTE_MS } from './time-units.ts';
import * as z from './zod-mini.ts';

/** A named limit: at most `limit` hits per client within any `windowMs`. */
export type RateLimit = { name: string; limit: number; windowMs: number };

/**
 * Per-client limits that hold however many requests arrive at once, on any number of instances
 * (docs/consistency.md, "Rate-limit hits"): a hit is admitted only by winning a numbered slot with
 * a write-once key (`onlyIfNew`). Periods are one window long; a hit may claim its period's slot j
 * only if j < limit − (previous period's hits still inside the window), a count that only falls, so
 * the window never holds more than `limit`. Older periods are deleted (only a claimer writes a slot
 * again, so this cannot race a claim). An attempt still being decided holds its slot as `pending`.
 */

const SlotSchema = z.object({ at: z.int(), pending: z.optional(z.boolean()) });

/**
 * A pending slot older than this belongs to a request that died, and counts as a hit: Netlify stops
 * a synchronous function at 60 s (https://docs.netlify.com/build/functions/configuration).
 */
const PENDING_MAX_MS = MINUTE_MS;

// Clients are kept as a salted hash: the limiter needs to tell them apart, not to know them.
const clientKey = (client: string) => hash('sha256', `site-api:${clientIdentity(client)}`).slice(0, 32);
const prefixOf = (rule: RateLimit, period: number, client: string) =>
  `rate/${rule.name}/${period}/${clientKey(client)}/`;
const slotOf = (key: string) => Number(/\/slot-(\d+)$/.exec(key)?.[1] ?? Number.NaN);

/**
 * A client's standing in the current period: the times of the previous period's hits still inside
 * the window (`earlier`), this period's claimed slots (`taken`), and how many may be claimed now.
 */
async function standingOf(rule: RateLimit, client: string, now: number, later?: AfterAnswer) {
  const period = Math.floor(now / rule.windowMs);
  // The sweep touches only periods this standing never reads, so it need not go first.
  const [, earlierKeys, currentKeys] = await Promise.all([
    finishLater('sweep expired rate-limit periods', () => sweepExpired(rule, period), later),
    listKeys('rate-limits', prefixOf(rule, period - 1, client)),
    listKeys('rate-limits', prefixOf(rule, period, client)),
  ]);
  // A slot whose record cannot be read counts as a hit made now: the limit errs on the safe side.
  const earlier = (await Promise.all(earlierKeys.map((key) => readRecord('rate-limits', key, SlotSchema))))
    .map((slot) => slot?.at ?? now)
    .filter((at) => now - at < rule.windowMs);
  const taken = new Map(currentKeys.map((key) => [slotOf(key), key] as const));
  return { earlier, taken, allowed: rule.limit - earlier.length, period };
}
type Standing = Awaited<ReturnType<typeof standingOf>>;

/**
 * This period's slots as read now: the 429 they make (`Retry-After` counted from the client's oldest
 * hit inside the window), and whether any of them is still being decided.
 */
async function refusal(rule: RateLimit, standing: Standing, now: number) {
  const slots = await Promise.all(
    [...standing.taken.values()].map((key) => readRecord('rate-limits', key, SlotSchema)),
  );
  const hits = [...standing.earlier, ...slots.map((slot) => slot?.at ?? now)];
  const oldest = hits.length > 0 ? Math.min(...hits) : now;
  return {
    error: tooManyRequests((oldest + rule.windowMs - now) / 1000),
    // A slot gone since the listing was given back just now: worth another look too.
    deciding: slots.some((slot) => slot === null || (slot.pending === true && now - slot.at < PENDING_MAX_MS)),
  };
}

async function claim(rule: RateLimit, client: string, now: number, pending: boolean, later?: AfterAnswer) {
  const record = pending ? { at: now, pending } : { at: now };
  const standing = await standingOf(rule, client, now, later);
  for (let slot = 0; slot < standing.allowed; slot++) {
    if (standing.taken.has(slot)) continue;
    const key = `${prefixOf(rule, standing.period, client)}slot-${slot}`;
    if (await createRecord('rate-limits', key, SlotSchema, record)) return { key } as const;
    standing.taken.set(slot, key);
  }
  return { refused: await refusal(rule, standing, now) } as const;
}

/** Counts a hit before the request is acted on, or throws 429 (with `Retry-After`) over the limit. */
export async function hitRateLimit(rule: RateLimit, client: string, now = Date.now()): Promise<void> {
  const result = await claim(rule, client, now, false);
  if ('refused' in result) throw result.refused.error;
}

/**
 * Takes one attempt whose outcome is not known yet, or throws 429: `confirm()` keeps it as a hit,
 * `release()` gives it back. With every slot held by attempts still being decided it waits rather
 * than refuse, since the owner's phone may send a burst: an attempt is decided within its request or
 * just after its answer, so the wait is short unless Blobs is slow. It lasts RATE_LIMIT_WAIT_MS at
 * most (the contract's 5 s, docs/contract.md), looking again after 25 ms, doubling to 250; then 429.
 */
export async function reserveAttempt(
  rule: RateLimit,
  client: string,
  { later }: { later?: AfterAnswer | undefined } = {},
): Promise<{ confirm(): Promise<void>; release(): Promise<void> }> {
  const deadline = Date.now() + getConfig().RATE_LIMIT_WAIT_MS;
  for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
    const now = Date.now();
    const result = await claim(rule, client, now, true, later);
    if ('key' in result) {
      const { key } = result;
      return {
        confirm: () => writeRecord('rate-limits', key, SlotSchema, { at: now }),
        release: () => deleteRecords('rate-limits', [key]),
      };
    }
    if (!result.refused.deciding || Date.now() + pause > deadline) throw result.refused.error;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Throws 429 when the client could not be admitted now, without counting a hit. */
export async function checkRateLimit(
  rule: RateLimit,
  client: string,
  { now = Date.now(), later }: { now?: number; later?: AfterAnswer | undefined } = {},
): Promise<void> {
  const standing = await standingOf(rule, client, now, later);
  for (let slot = 0; slot < standing.allowed; slot++) if (!standing.taken.has(slot)) return;
  throw (await refusal(rule, standing, now)).error;
}

const lastSweep = new Map<string, number>();

/** Deletes every client's periods before the previous one, once per period per instance. */
async function sweepExpired(rule: RateLimit, period: number): Promise<void> {
  if (lastSweep.get(rule.name) === period) return;
  lastSweep.set(rule.name, period);
  const root = `rate/${rule.name}/`;
  const keys = await listKeys('rate-limits', root);
  const dead = keys.filter((key) => Number(key.slice(root.length).split('/')[0]) < period - 1);
  if (dead.length > 0) await deleteRecords('rate-limits', dead);
}
