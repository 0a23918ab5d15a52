import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import * as z from '../platform/zod-mini.ts';

/** Only the newest posts matter to the sharing job. */
const MAX_ITEMS = 200;

/** A post of the site as the sharing job sees it; `publishedAt` in Unix ms, null when undated. */
export interface FeedPost {
  id: string;
  url: string;
  title: string;
  summary: string | null;
  publishedAt: number | null;
}

/**
 * The parts of JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/) the job reads (RSS would need an XML
 * parser). Numeric ids (seen in 1.0 feeds) are read as strings, as the spec says.
 */
const JsonFeedSchema = z.object({
  version: z.string().check(z.regex(/^https?:\/\/jsonfeed\.org\/version\/1(\.1)?$/, 'is not a JSON Feed version URL')),
  items: z.array(z.unknown()),
});
const JsonFeedItemSchema = z.object({
  id: z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String)),
  url: z.optional(z.string()),
  title: z.optional(z.string()),
  summary: z.optional(z.string()),
  content_text: z.optional(z.string()),
  date_published: z.optional(z.string()),
});

/** Reads the site's feed and returns its posts, oldest first. */
export async function fetchSiteFeed(url: string): Promise<FeedPost[]> {
  const answer = await callUpstream({
    label: 'post feed',
    url,
    headers: { Accept: 'application/feed+json, application/json;q=0.9', 'User-Agent': 'site-api (+sharing job)' },
    timeoutMs: 5_000, // a static file: it answers fast or is down
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    maxBytes: 4 * 1024 * 1024,
  });
  if (answer.status !== 200) throw new UpstreamError(`post feed: answered ${answer.status}`);
  return parseSiteFeed(answer.text, url);
}

/** The posts with web links (resolved against `baseUrl`), oldest first, then undated ones in reverse feed order. */
export function parseSiteFeed(text: string, baseUrl: string): FeedPost[] {
  const feed = JsonFeedSchema.safeParse(parseJson(text.replace(/^\uFEFF/, ''), 'post feed'));
  if (!feed.success) throw new UpstreamError('post feed: not a JSON Feed (version 1 or 1.1)');
  const posts = new Map<string, FeedPost>();
  for (const raw of feed.data.items.slice(0, MAX_ITEMS)) {
    const item = JsonFeedItemSchema.safeParse(raw);
    const url = item.success ? webUrl(item.data.url, baseUrl) : null;
    if (!item.success || !url || posts.has(item.data.id)) continue;
    const summary = clean(item.data.summary ?? item.data.content_text);
    const title = clean(item.data.title) || (summary.length > 100 ? `${summary.slice(0, 99)}…` : summary) || url;
    const publishedAt = Date.parse(item.data.date_published?.trim() ?? '');
    posts.set(item.data.id, {
      id: item.data.id,
      url,
      title,
      summary: summary || null,
      publishedAt: Number.isFinite(publishedAt) ? publishedAt : null,
    });
  }
  const all = [...posts.values()];
  const dated = all.filter((post) => post.publishedAt !== null);
  dated.sort((a, b) => (a.publishedAt ?? 0) - (b.publishedAt ?? 0));
  return [...dated, ...all.filter((post) => post.publishedAt === null).reverse()];
}

const clean = (text = '') => text.replace(/\s+/g, ' ').trim();

function webUrl(value: string | undefined, baseUrl: string): string | null {
  const url = value ? URL.parse(value.trim(), baseUrl) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}
