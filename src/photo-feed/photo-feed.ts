import { createHash } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { relayCache } from '../platform/relay-cache.ts';
import { readRecord, writeRecord } from '../platform/store.ts';
import { type PhotoFeed, type PhotoItem, StoredPhotoFeedSchema } from './photo-feed-schemas.ts';
import { fetchRecentMedia } from './photo-platform-api.ts';
import { currentPhotoToken } from './photo-token.ts';

/** docs/contract.md: cached 5 minutes like wait-times, with the same fallback rules (the one relay). */
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
    return stored && { fetchedAt: stored.fetchedAt, value: stored.items };
  },
  async writeStored(key, { fetchedAt, value }) {
    await writeRecord('photo-feed', key, StoredPhotoFeedSchema, { fetchedAt, items: value });
  },
});

/**
 * GET /api/photo-feed: recent posts, or an empty feed when unconfigured. Cached per platform URL and token
 * digest, so a change of account never shows the previous account's posts.
 */
export async function getPhotoFeed(): Promise<{ body: PhotoFeed; maxAgeSeconds: number; fallback: boolean }> {
  const { PHOTO_FEED_ACCESS_TOKEN: token, PHOTO_FEED_UPSTREAM_URL: upstream } = getConfig();
  if (!token) return { body: { configured: false, updatedAt: null, items: [] }, maxAgeSeconds: 300, fallback: false };
  const account = createHash('sha256').update(`${upstream}\n${token}`).digest('base64url').slice(0, 16);
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
