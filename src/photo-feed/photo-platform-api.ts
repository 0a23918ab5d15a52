import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import {
  GraphErrorSchema,
  type GraphMedia,
  GraphMediaPageSchema,
  GraphMediaSchema,
  GraphTokenSchema,
  type PhotoItem,
  PhotoItemSchema,
} from './photo-feed-schemas.ts';

/** Same bound as the wait-time provider: slower than this counts as down. */
export const GRAPH_TIMEOUT_MS = 8_000;
/** A page of 25 posts with long CDN URLs is about 20 KB. */
const MAX_GRAPH_BYTES = 1024 * 1024;
/** How many recent posts the feed shows. */
export const PHOTO_FEED_LIMIT = 12;
/** The fields asked of `/me/media` (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media). */
export const MEDIA_FIELDS = 'id,caption,media_type,media_url,permalink,timestamp,thumbnail_url';

/** The platform refused or failed; `code` is the Graph error code (190: the token is expired or invalid). */
export class GraphApiError extends UpstreamError {
  override name = 'GraphApiError';
  readonly status: number;
  readonly code: number | null;

  constructor(status: number, code: number | null) {
    super(
      code === 190
        ? `photo platform rejected the token as expired or invalid (${status}, code 190)`
        : `photo platform answered ${status}${code === null ? '' : ` (code ${code})`}`,
    );
    this.status = status;
    this.code = code;
  }
}

/** The owner's recent posts, newest first, as feed items; posts without a usable image are left out. */
export async function fetchRecentMedia(
  baseUrl: string,
  token: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<PhotoItem[]> {
  const url = new URL(`${baseUrl}/me/media`);
  url.searchParams.set('fields', MEDIA_FIELDS);
  url.searchParams.set('limit', String(PHOTO_FEED_LIMIT));
  // The platform documents the token as a query parameter (never logged: see upstream-http.ts).
  url.searchParams.set('access_token', token);
  const json = await graphGet(url, options.timeoutMs);
  const page = GraphMediaPageSchema.safeParse(json);
  if (!page.success) throw new UpstreamError('photo platform: unexpected media payload');
  return page.data.data.flatMap((raw) => {
    const media = GraphMediaSchema.safeParse(raw);
    const item = media.success ? photoItemOf(media.data) : null;
    return item ? [item] : [];
  });
}

/**
 * Exchanges a long-lived token for a new one valid 60 days
 * (https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token);
 * the token must be at least 24 hours old and not expired.
 */
export async function refreshAccessToken(
  baseUrl: string,
  token: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const url = new URL(`${baseUrl}/refresh_access_token`);
  url.searchParams.set('grant_type', 'ig_refresh_token');
  url.searchParams.set('access_token', token);
  const parsed = GraphTokenSchema.safeParse(await graphGet(url, options.timeoutMs));
  if (!parsed.success) throw new UpstreamError('photo platform: unexpected token payload');
  return { accessToken: parsed.data.access_token, expiresInSeconds: parsed.data.expires_in };
}

async function graphGet(url: URL, timeoutMs = GRAPH_TIMEOUT_MS): Promise<unknown> {
  const answer = await callUpstream({
    label: 'photo platform',
    url: url.href,
    headers: { Accept: 'application/json', 'User-Agent': 'site-api (+photo feed)' },
    timeoutMs,
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    maxBytes: MAX_GRAPH_BYTES,
  });
  if (answer.status !== 200) {
    let code: number | null = null;
    try {
      code = GraphErrorSchema.safeParse(JSON.parse(answer.text)).data?.error.code ?? null;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new GraphApiError(answer.status, code);
  }
  return parseJson(answer.text, 'photo platform');
}

const MEDIA_TYPES: Readonly<Record<string, PhotoItem['mediaType']>> = {
  IMAGE: 'image',
  VIDEO: 'video',
  CAROUSEL_ALBUM: 'carousel',
};

/**
 * One post as a feed item, or null when it cannot be shown: a video's image is its cover
 * (`thumbnail_url`); `media_url` is missing for videos flagged for copyright; only http(s)
 * addresses are passed on, so a client can put them in a page as they are.
 */
export function photoItemOf(media: GraphMedia): PhotoItem | null {
  const mediaType = MEDIA_TYPES[media.media_type ?? ''];
  if (!mediaType) return null;
  const imageUrl = mediaType === 'video' ? (media.thumbnail_url ?? null) : (media.media_url ?? null);
  const timestamp = isoTimestamp(media.timestamp);
  const item = PhotoItemSchema.safeParse({
    id: media.id,
    caption: media.caption?.trim() ? media.caption : null,
    mediaType,
    imageUrl,
    permalink: media.permalink,
    timestamp,
  });
  return item.success ? item.data : null;
}

/** The platform writes `2023-07-15T12:50:35+0000` (no colon in the offset); we answer ISO 8601 UTC. */
export function isoTimestamp(value: string | undefined): string | null {
  if (!value) return null;
  const normalised = value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = Date.parse(normalised);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
