import { createHash } from 'node:crypto';
import { runJob, upstreamErrorOf } from '../jobs/job-runs.ts';
import type { StoredRun } from '../jobs/jobs-schemas.ts';
import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { DAY_MS, HOUR_MS } from '../platform/time-units.ts';
import { type StoredPhotoToken, StoredPhotoTokenSchema } from './photo-feed-schemas.ts';
import { GraphApiError, refreshAccessToken } from './photo-platform-api.ts';

/**
 * The platform's long-lived tokens last 60 days and can be refreshed once 24 hours old. The daily job keeps the
 * refreshed successor of the configured PHOTO_FEED_ACCESS_TOKEN in Blobs (`photo-feed/token`) for the feed.
 */
const TOKEN_KEY = 'token';
const NEW_TOKEN_HINT = 'configure a new long-lived token in PHOTO_FEED_ACCESS_TOKEN';
const ended = (outcome: 'success' | 'failure', message: string) => ({ outcome, message });

/** The platform refuses to refresh a token younger than this. */
export const REFRESH_MIN_AGE_MS = 24 * HOUR_MS;
/** Refreshed with this much or less of its life left: a month of daily retries if refreshing fails. */
export const REFRESH_WHEN_LEFT_MS = 30 * DAY_MS;

/** Names the configured token in stored records without storing it. */
export function lineageOf(configuredToken: string): string {
  return createHash('sha256').update(`photo-token:${configuredToken}`).digest('base64url').slice(0, 16);
}

async function storedToken(configuredToken: string): Promise<StoredPhotoToken | null> {
  const stored = await readRecord('photo-feed', TOKEN_KEY, StoredPhotoTokenSchema);
  return stored?.lineage === lineageOf(configuredToken) ? stored : null;
}

/** The token the feed uses: the refreshed one, else the configured one; null when unconfigured. */
export async function currentPhotoToken(): Promise<string | null> {
  const configured = getConfig().PHOTO_FEED_ACCESS_TOKEN;
  if (!configured) return null;
  const stored = await storedToken(configured).catch((error: Error) => {
    console.warn(`Photo feed: refreshed token unavailable, using the configured one: ${error.message}`);
    return null;
  });
  return stored?.accessToken ?? configured;
}

/** Whether the refresh job should refresh now; pure, so that every edge is tested. */
export function refreshDecision(
  stored: StoredPhotoToken | null,
  now: number,
): { refresh: true; reason: string } | { refresh: false; expired: boolean; reason: string } {
  if (!stored) return { refresh: true, reason: 'the configured token has not been refreshed yet' };
  const left = stored.expiresAt - now;
  const age = now - stored.refreshedAt;
  if (left <= 0) return { refresh: false, expired: true, reason: `the token expired at ${iso(stored.expiresAt)}` };
  if (age < REFRESH_MIN_AGE_MS) {
    const reason = `refreshed ${Math.floor(age / HOUR_MS)} h ago; it can be refreshed after 24 h`;
    return { refresh: false, expired: false, reason };
  }
  const days = `${Math.floor(left / DAY_MS)} days left`;
  if (left > REFRESH_WHEN_LEFT_MS)
    return { refresh: false, expired: false, reason: `${days}; refreshed when 30 or fewer are left` };
  return { refresh: true, reason: days };
}

/** The photo token refresh job (daily). */
export async function runPhotoTokenRefreshJob(options: { timeoutMs?: number } = {}): Promise<StoredRun> {
  return runJob('photo-token-refresh', async () => {
    const { PHOTO_FEED_ACCESS_TOKEN: configured, PHOTO_FEED_UPSTREAM_URL: upstream } = getConfig();
    if (!configured) {
      return ended('success', 'the photo feed is not configured (PHOTO_FEED_ACCESS_TOKEN): nothing to refresh');
    }
    const stored = await storedToken(configured);
    const now = Date.now();
    const decision = refreshDecision(stored, now);
    if (!decision.refresh) {
      return decision.expired
        ? ended('failure', `${decision.reason}: ${NEW_TOKEN_HINT}`)
        : ended('success', `not refreshed: ${decision.reason}`);
    }
    const refreshed = await refreshAccessToken(upstream, stored?.accessToken ?? configured, options.timeoutMs).catch(
      upstreamErrorOf,
    );
    if (refreshed instanceof UpstreamError) {
      const hint =
        refreshed instanceof GraphApiError && refreshed.code === 190
          ? `: ${NEW_TOKEN_HINT}`
          : '; the next run tries again';
      return ended('failure', `refresh failed: ${refreshed.message}${hint}`);
    }
    const expiresAt = now + refreshed.expires_in * 1000;
    const record = { accessToken: refreshed.access_token, lineage: lineageOf(configured), refreshedAt: now, expiresAt };
    try {
      await writeRecord('photo-feed', TOKEN_KEY, StoredPhotoTokenSchema, record);
    } catch (error) {
      // The token in use stays valid until its own expiry; the next run refreshes again.
      console.warn(`Photo token: could not store the refreshed token: ${(error as Error).message}`);
      return ended('failure', 'refreshed, but the new token could not be stored; the next run tries again');
    }
    return ended('success', `refreshed (${decision.reason}); the token now expires at ${iso(expiresAt)}`);
  });
}

const iso = (time: number) => new Date(time).toISOString();
