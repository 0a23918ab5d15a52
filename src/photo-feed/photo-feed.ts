import { createHash } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { relayCache } from '../platform/relay-cache.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { type PhotoFeed, type PhotoItem, StoredPhotoFeedSchema } from './photo-feed-schemas.ts';
import { fetchRecentMedia } from './photo-platform-api.ts';
import { currentPhotoToken } from './photo-token.ts';

/** An unconfigured feed changes only with the configuration. */
const UNCONFIGURED_CACHE_SECONDS = 300;

export interface PhotoFeedResult {
  body: PhotoFeed;
  maxAgeSeconds: number;
  fallback: boolean;
}

/** CONTRACT: cached 5 minutes like wait-times, with the same fallback rules (the one relay). */
const relay = relayCache<string, PhotoItem[]>({
  label: 'Photo feed',
  keyOf: (key) => key,
  async fetch() {
    const token = await currentPhotoToken();
    if (!token) throw new UpstreamError('photo feed is no longer configured');
    return fetchRecentMedia(getConfig().PHOTO_FEED_UPSTREAM_URL, token);
  },
  async readStored(key) {
    const stored = await readRecord('photo-feed', key, StoredPhotoFeedSchema);
    return stored ? { fetchedAt: stored.fetchedAt, value: stored.items } : null;
  },
  async writeStored(key, timed) {
    await writeRecord('photo-feed', key, StoredPhotoFeedSchema, { fetchedAt: timed.fetchedAt, items: timed.value });
  },
});

/**
 * GET /api/photo-feed: recent posts from the photo platform, or an empty feed when it is not
 * configured. The cache is per account and platform URL (a digest of the configured token),
 * so that a change of account never shows the previous account's posts.
 */
export async function getPhotoFeed(): Promise<PhotoFeedResult> {
  const config = getConfig();
  if (!config.PHOTO_FEED_ACCESS_TOKEN) {
    return {
      body: { configured: false, updatedAt: null, items: [] },
      maxAgeSeconds: UNCONFIGURED_CACHE_SECONDS,
      fallback: false,
    };
  }
  const account = createHash('sha256')
    .update(`${config.PHOTO_FEED_UPSTREAM_URL}\n${config.PHOTO_FEED_ACCESS_TOKEN}`)
    .digest('base64url')
    .slice(0, 16);
  const result = await relay.get(`feed/${account}`);
  return {
    body: { configured: true, updatedAt: result.fetchedAt, items: result.value },
    maxAgeSeconds: result.maxAgeSeconds,
    fallback: result.fallback,
  };
}

/** Forgets the feed kept in memory (tests start each case cold). */
export function resetPhotoFeedMemory(): void {
  relay.reset();
}
