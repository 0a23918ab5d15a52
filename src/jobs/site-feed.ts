import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import { type FeedPost, JsonFeedItemSchema, JsonFeedSchema } from './site-feed-schemas.ts';

/** The site's own feed is a static file: it answers fast or is down. */
export const FEED_TIMEOUT_MS = 5_000;
/** A feed of full posts can be large, but not this large. */
export const MAX_FEED_BYTES = 4 * 1024 * 1024;
/** Only the newest posts matter to the sharing job. */
const MAX_ITEMS = 200;

/** Reads the site's feed (JSON Feed 1.0/1.1) and returns its posts, oldest first. */
export async function fetchSiteFeed(
  url: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<FeedPost[]> {
  const answer = await callUpstream({
    label: 'post feed',
    url,
    headers: {
      Accept: 'application/feed+json, application/json;q=0.9',
      'User-Agent': 'site-api (+sharing job)',
    },
    timeoutMs: options.timeoutMs ?? FEED_TIMEOUT_MS,
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    maxBytes: MAX_FEED_BYTES,
  });
  if (answer.status !== 200) throw new UpstreamError(`post feed: answered ${answer.status}`);
  return parseSiteFeed(answer.text, url);
}

/**
 * Parses a JSON Feed 1.0/1.1 (https://www.jsonfeed.org/version/1.1/), with relative links resolved
 * against `baseUrl`. Only JSON Feed is read: it is JSON, so zod checks it, where RSS would need an
 * XML parser. Items without a usable link are left out; the result is sorted oldest first, undated
 * items in feed order after the dated ones.
 */
export function parseSiteFeed(text: string, baseUrl: string): FeedPost[] {
  const feed = JsonFeedSchema.safeParse(parseJson(text.replace(/^\uFEFF/, ''), 'post feed'));
  if (!feed.success) throw new UpstreamError('post feed: not a JSON Feed (version 1 or 1.1)');
  const seen = new Set<string>();
  const posts: FeedPost[] = [];
  for (const raw of feed.data.items.slice(0, MAX_ITEMS)) {
    const item = JsonFeedItemSchema.safeParse(raw);
    const url = item.success ? absoluteWebUrl(item.data.url, baseUrl) : null;
    if (!item.success || !url || seen.has(item.data.id)) continue;
    seen.add(item.data.id);
    const summary = cleanText(item.data.summary ?? item.data.content_text ?? '');
    posts.push({
      id: item.data.id,
      url,
      title: titleOf(item.data.title, summary, url),
      summary: summary === '' ? null : summary,
      publishedAt: dateOf(item.data.date_published),
    });
  }
  // Feeds list newest first; undated posts keep that order, reversed, after the dated ones.
  const dated = posts.filter((post) => post.publishedAt !== null);
  const undated = posts.filter((post) => post.publishedAt === null).reverse();
  dated.sort((a, b) => (a.publishedAt ?? 0) - (b.publishedAt ?? 0));
  return [...dated, ...undated];
}

function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function titleOf(title: string | undefined, summary: string, url: string): string {
  const clean = cleanText(title ?? '');
  if (clean !== '') return clean;
  if (summary !== '') return summary.length > 100 ? `${summary.slice(0, 99)}…` : summary;
  return url;
}

function absoluteWebUrl(value: string | undefined, baseUrl: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), baseUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** RFC 3339 dates; null when missing or unreadable. */
function dateOf(value: string | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value.trim());
  return Number.isFinite(time) ? time : null;
}
