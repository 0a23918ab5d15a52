import { createHash } from 'node:crypto';
import { runJob } from '../jobs/job-runs.ts';
import type { StoredRun } from '../jobs/jobs-schemas.ts';
import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { type StoredPhotoToken, StoredPhotoTokenSchema } from './photo-feed-schemas.ts';
import { GraphApiError, refreshAccessToken } from './photo-platform-api.ts';

/**
 * The photo platform's long-lived tokens last 60 days and can be refreshed once they are 24
 * hours old. The configured token (PHOTO_FEED_ACCESS_TOKEN) is the start of a lineage: the
 * refresh job replaces it with a refreshed one kept in Blobs (`photo-feed/token`), which the
 * feed then uses. Configuring a different token starts a new lineage.
 */

const TOKEN_KEY = 'token';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The platform refuses to refresh a token younger than this. */
export const REFRESH_MIN_AGE_MS = 24 * HOUR;
/** Refreshed when this much or less of its life is left: a month of daily retries if refreshing fails. */
export const REFRESH_WHEN_LEFT_MS = 30 * DAY;

/** Identifies the configured token in stored records without storing it. */
export function lineageOf(configuredToken: string): string {
  return createHash('sha256').update(`photo-token:${configuredToken}`).digest('base64url').slice(0, 16);
}

/** The refreshed token of the configured token's lineage, if any. */
async function storedToken(configuredToken: string): Promise<StoredPhotoToken | null> {
  const stored = await readRecord('photo-feed', TOKEN_KEY, StoredPhotoTokenSchema);
  return stored && stored.lineage === lineageOf(configuredToken) ? stored : null;
}

/** The token the feed should use now: the refreshed one, else the configured one; null when unconfigured. */
export async function currentPhotoToken(): Promise<string | null> {
  const configured = getConfig().PHOTO_FEED_ACCESS_TOKEN;
  if (!configured) return null;
  try {
    return (await storedToken(configured))?.accessToken ?? configured;
  } catch (error) {
    console.warn(`Photo feed: refreshed token unavailable, using the configured one: ${(error as Error).message}`);
    return configured;
  }
}

export type RefreshDecision = { refresh: true; reason: string } | { refresh: false; expired: boolean; reason: string };

/** Whether the refresh job should refresh now; pure, so that every edge is tested. */
export function refreshDecision(stored: StoredPhotoToken | null, now: number): RefreshDecision {
  if (!stored) return { refresh: true, reason: 'the configured token has not been refreshed yet' };
  const left = stored.expiresAt - now;
  if (left <= 0) return { refresh: false, expired: true, reason: `the token expired at ${iso(stored.expiresAt)}` };
  const age = now - stored.refreshedAt;
  if (age < REFRESH_MIN_AGE_MS) {
    return {
      refresh: false,
      expired: false,
      reason: `refreshed ${Math.floor(age / HOUR)} h ago; it can be refreshed after 24 h`,
    };
  }
  if (left > REFRESH_WHEN_LEFT_MS) {
    return {
      refresh: false,
      expired: false,
      reason: `${Math.floor(left / DAY)} days left; refreshed when 30 or fewer are left`,
    };
  }
  return { refresh: true, reason: `${Math.floor(left / DAY)} days left` };
}

/** The photo token refresh job (daily). */
export async function runPhotoTokenRefreshJob(options: { timeoutMs?: number | undefined } = {}): Promise<StoredRun> {
  return runJob('photo-token-refresh', async () => {
    const config = getConfig();
    const configured = config.PHOTO_FEED_ACCESS_TOKEN;
    if (!configured) {
      return {
        outcome: 'success',
        message: 'the photo feed is not configured (PHOTO_FEED_ACCESS_TOKEN): nothing to refresh',
      };
    }
    const stored = await storedToken(configured);
    const now = Date.now();
    const decision = refreshDecision(stored, now);
    if (!decision.refresh) {
      return decision.expired
        ? {
            outcome: 'failure',
            message: `${decision.reason}: configure a new long-lived token in PHOTO_FEED_ACCESS_TOKEN`,
          }
        : { outcome: 'success', message: `not refreshed: ${decision.reason}` };
    }
    let refreshed: { accessToken: string; expiresInSeconds: number };
    try {
      refreshed = await refreshAccessToken(config.PHOTO_FEED_UPSTREAM_URL, stored?.accessToken ?? configured, options);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const hint =
        error instanceof GraphApiError && error.code === 190
          ? ': configure a new long-lived token in PHOTO_FEED_ACCESS_TOKEN'
          : '; the next run tries again';
      return { outcome: 'failure', message: `refresh failed: ${error.message}${hint}` };
    }
    const record: StoredPhotoToken = {
      accessToken: refreshed.accessToken,
      lineage: lineageOf(configured),
      refreshedAt: now,
      expiresAt: now + refreshed.expiresInSeconds * 1000,
    };
    try {
      await writeRecord('photo-feed', TOKEN_KEY, StoredPhotoTokenSchema, record);
    } catch (error) {
      // The token in use stays valid until its own expiry; the next run refreshes again.
      console.warn(`Photo token: could not store the refreshed token: ${(error as Error).message}`);
      return {
        outcome: 'failure',
        message: 'refreshed, but the new token could not be stored; the next run tries again',
      };
    }
    return {
      outcome: 'success',
      message: `refreshed (${decision.reason}); the token now expires at ${iso(record.expiresAt)}`,
    };
  });
}

const iso = (time: number) => new Date(time).toISOString();
