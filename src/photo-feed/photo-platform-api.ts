import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, errorBodyOf, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
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
const GRAPH_TIMEOUT_MS = 8_000;

/** The platform refused or failed; `code` is the Graph error code (190: the token is expired or invalid). */
export class GraphApiError extends UpstreamError {
  readonly code: number | null;

  constructor(status: number, code: number | null) {
    super(
      code === 190
        ? `photo platform rejected the token as expired or invalid (${status}, code 190)`
        : `photo platform answered ${status}${code === null ? '' : ` (code ${code})`}`,
    );
    this.code = code;
  }
}

/** The owner's recent posts, newest first, as feed items; posts without a usable image are left out. */
export async function fetchRecentMedia(baseUrl: string, token: string): Promise<PhotoItem[]> {
  // The fields of https://developers.facebook.com/docs/instagram-platform/reference/instagram-media;
  // the platform takes the token as a query parameter (never logged: see upstream-http.ts).
  const query = new URLSearchParams({
    fields: 'id,caption,media_type,media_url,permalink,timestamp,thumbnail_url',
    limit: '12',
    access_token: token,
  });
  const page = GraphMediaPageSchema.safeParse(await graphGet(`${baseUrl}/me/media?${query}`));
  if (!page.success) throw new UpstreamError('photo platform: unexpected media payload');
  return page.data.data.flatMap((raw) => {
    const media = GraphMediaSchema.safeParse(raw);
    const item = media.success ? photoItemOf(media.data) : null;
    return item ? [item] : [];
  });
}

/**
 * Exchanges a long-lived token at least 24 hours old and not expired for a new one valid 60 days
 * (https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token).
 */
export async function refreshAccessToken(baseUrl: string, token: string, timeoutMs?: number) {
  const query = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: token });
  const parsed = GraphTokenSchema.safeParse(await graphGet(`${baseUrl}/refresh_access_token?${query}`, timeoutMs));
  if (!parsed.success) throw new UpstreamError('photo platform: unexpected token payload');
  return parsed.data;
}

async function graphGet(url: string, timeoutMs = GRAPH_TIMEOUT_MS): Promise<unknown> {
  const answer = await callUpstream({
    label: 'photo platform',
    url,
    headers: { Accept: 'application/json', 'User-Agent': 'site-api (+photo feed)' },
    timeoutMs,
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    maxBytes: 1024 * 1024, // a page of 25 posts with long CDN URLs is about 20 KB
  });
  if (answer.status !== 200) {
    throw new GraphApiError(answer.status, errorBodyOf(GraphErrorSchema, answer.text)?.error.code ?? null);
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
  const item = PhotoItemSchema.safeParse({
    id: media.id,
    caption: media.caption?.trim() ? media.caption : null,
    mediaType,
    imageUrl: mediaType === 'video' ? media.thumbnail_url : media.media_url,
    permalink: media.permalink,
    timestamp: isoTimestamp(media.timestamp),
  });
  return item.success ? item.data : null;
}

/** The platform writes `2023-07-15T12:50:35+0000` (no colon in the offset); we answer ISO 8601 UTC. */
export function isoTimestamp(value: string | undefined): string | null {
  const time = Date.parse(value?.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2') ?? '');
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
