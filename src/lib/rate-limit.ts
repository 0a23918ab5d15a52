import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TooManyRequestsError } from './errors.ts';
import { deleteRecords, listKeys, timeKey, writeRecord } from './store.ts';

/** A named limit: at most `limit` hits per client within `windowMs`. */
export interface RateLimit {
  name: string;
  limit: number;
  windowMs: number;
}

const HitSchema = z.object({ at: z.int() });

// Clients are kept as a salted hash: the limiter needs to tell them apart, not to know them.
const clientKey = (client: string) => createHash('sha256').update(`site-api:${client}`).digest('hex').slice(0, 32);
const prefixOf = (rule: RateLimit, client: string) => `rate/${rule.name}/${clientKey(client)}/`;
const timeOf = (key: string) => Number(key.slice(key.lastIndexOf('/') + 1).split('-')[0]);

/**
 * Counts a hit for a client and throws 429 (with `Retry-After`) once it is over the limit. Each
 * hit is its own Blobs key, so instances counting at once never lose a hit to each other.
 */
export async function hitRateLimit(rule: RateLimit, client: string, now = Date.now()): Promise<void> {
  const recent = await recentHits(rule, client, now);
  if (recent.length >= rule.limit) {
    const oldest = Math.min(...recent);
    throw new TooManyRequestsError((oldest + rule.windowMs - now) / 1000);
  }
  await writeRecord('rate-limits', `${prefixOf(rule, client)}${timeKey(now)}-${randomUUID()}`, HitSchema, {
    at: now,
  });
}

/** Throws 429 when the client is already over the limit, without counting a hit. */
export async function checkRateLimit(rule: RateLimit, client: string, now = Date.now()): Promise<void> {
  const recent = await recentHits(rule, client, now);
  if (recent.length >= rule.limit) {
    throw new TooManyRequestsError((Math.min(...recent) + rule.windowMs - now) / 1000);
  }
}

/** Counts a hit without checking (for failures that should count towards a later check). */
export async function recordHit(rule: RateLimit, client: string, now = Date.now()): Promise<void> {
  await writeRecord('rate-limits', `${prefixOf(rule, client)}${timeKey(now)}-${randomUUID()}`, HitSchema, {
    at: now,
  });
}

const lastSweep = new Map<string, number>();

/**
 * Deletes the expired hits of every client of a rule, at most once per window per instance: a
 * client that never comes back would otherwise leave its hits in Blobs for good.
 */
async function sweepExpired(rule: RateLimit, now: number): Promise<void> {
  if (now - (lastSweep.get(rule.name) ?? 0) < rule.windowMs) return;
  lastSweep.set(rule.name, now);
  const keys = await listKeys('rate-limits', `rate/${rule.name}/`);
  const expired = keys.filter((key) => now - timeOf(key) >= rule.windowMs);
  if (expired.length > 0) await deleteRecords('rate-limits', expired);
}

async function recentHits(rule: RateLimit, client: string, now: number): Promise<number[]> {
  await sweepExpired(rule, now);
  const keys = await listKeys('rate-limits', prefixOf(rule, client));
  const expired = keys.filter((key) => now - timeOf(key) >= rule.windowMs);
  if (expired.length > 0) await deleteRecords('rate-limits', expired);
  return keys.map(timeOf).filter((at) => now - at < rule.windowMs);
}
