import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import { type FeedPost, JsonFeedItemSchema, JsonFeedSchema } from './site-feed-schemas.ts';

/** The site's own feed is a static file: it answers fast or is down. */
export const FEED_TIMEOUT_MS = 5_000;
/** A feed of full posts can be large, but not this large. */
export const MAX_FEED_BYTES = 4 * 1024 * 1024;
/** Only the newest posts matter to the sharing job. */
const MAX_ITEMS = 200;

/** Reads the site's feed (JSON Feed or RSS 2.0) and returns its posts, oldest first. */
export async function fetchSiteFeed(
  url: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<FeedPost[]> {
  const answer = await callUpstream({
    label: 'post feed',
    url,
    headers: {
      Accept: 'application/feed+json, application/json;q=0.9, application/rss+xml;q=0.8, application/xml;q=0.7',
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
 * Parses a JSON Feed 1.0/1.1 or an RSS 2.0 document (told apart by their first character), with
 * relative links resolved against `baseUrl`. Items without a usable link are left out; the
 * result is sorted oldest first, undated items in feed order after the dated ones.
 */
export function parseSiteFeed(text: string, baseUrl: string): FeedPost[] {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  let posts: FeedPost[];
  if (trimmed.startsWith('{')) posts = parseJsonFeed(trimmed, baseUrl);
  else if (trimmed.startsWith('<')) posts = parseRss(trimmed, baseUrl);
  else throw new UpstreamError('post feed: neither JSON Feed nor RSS');
  const seen = new Set<string>();
  const unique = posts.filter((post) => !seen.has(post.id) && seen.add(post.id));
  // Feeds list newest first; undated posts keep that order, reversed, after the dated ones.
  const dated = unique.filter((post) => post.publishedAt !== null);
  const undated = unique.filter((post) => post.publishedAt === null).reverse();
  dated.sort((a, b) => (a.publishedAt ?? 0) - (b.publishedAt ?? 0));
  return [...dated, ...undated];
}

function parseJsonFeed(text: string, baseUrl: string): FeedPost[] {
  const feed = JsonFeedSchema.safeParse(parseJson(text, 'post feed'));
  if (!feed.success) throw new UpstreamError('post feed: not a JSON Feed (version 1 or 1.1)');
  const posts: FeedPost[] = [];
  for (const raw of feed.data.items.slice(0, MAX_ITEMS)) {
    const item = JsonFeedItemSchema.safeParse(raw);
    if (!item.success) continue;
    const url = absoluteWebUrl(item.data.url, baseUrl);
    if (!url) continue;
    const summary = cleanText(item.data.summary ?? item.data.content_text ?? '');
    posts.push({
      id: item.data.id,
      url,
      title: titleOf(item.data.title, summary, url),
      summary: summary === '' ? null : summary,
      publishedAt: dateOf(item.data.date_published),
    });
  }
  return posts;
}

/**
 * A small, strict reader for RSS 2.0 (https://www.rssboard.org/rss-specification): the root must
 * be `<rss>` with a `<channel>`; each `<item>` gives `title`, `link`, `guid`, `pubDate` and
 * `description`. No DTDs (so no entity expansion), CDATA and the XML entities are decoded.
 */
function parseRss(text: string, baseUrl: string): FeedPost[] {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new UpstreamError('post feed: RSS with a DTD is refused');
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!--[\s\S]*?-->/g, '');
  if (!/^<rss[\s>]/.test(body) || !/<\/rss>\s*$/.test(body)) throw new UpstreamError('post feed: not an RSS document');
  const channel = /<channel[\s>][\s\S]*<\/channel>/.exec(body);
  if (!channel) throw new UpstreamError('post feed: RSS without a channel');
  const posts: FeedPost[] = [];
  for (const match of channel[0].matchAll(/<item(?:\s[^>]*)?>([\s\S]*?)<\/item>/g)) {
    if (posts.length >= MAX_ITEMS) break;
    const item = match[1] ?? '';
    const guid = elementOf(item, 'guid');
    const guidIsLink = guid !== null && !/isPermaLink\s*=\s*["']false["']/.test(guid.attributes);
    const link = elementOf(item, 'link')?.text ?? (guidIsLink ? guid?.text : undefined);
    const url = absoluteWebUrl(link, baseUrl);
    if (!url) continue;
    const summary = cleanText(stripTags(elementOf(item, 'description')?.text ?? ''));
    posts.push({
      id: guid?.text || url,
      url,
      title: titleOf(elementOf(item, 'title')?.text, summary, url),
      summary: summary === '' ? null : summary,
      publishedAt: dateOf(elementOf(item, 'pubDate')?.text),
    });
  }
  return posts;
}

/** The first `<name>` element directly in `xml`, its attributes and its decoded text. */
function elementOf(xml: string, name: string): { attributes: string; text: string } | null {
  const match = new RegExp(`<${name}(\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${name}>)`).exec(xml);
  if (!match) return null;
  return { attributes: match[1] ?? '', text: decodeXmlText(match[2] ?? '').trim() };
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character data: CDATA sections verbatim, elsewhere the five XML entities and character references. */
export function decodeXmlText(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith('<![CDATA[')
        ? part.slice(9, -3)
        : part.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
            if (name.startsWith('#')) {
              const code =
                name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
              return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
            }
            return XML_ENTITIES[name] ?? entity;
          }),
    )
    .join('');
}

/** Text of an HTML fragment (an RSS description), with its own entities decoded. */
function stripTags(html: string): string {
  const text = html
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ');
  return decodeXmlText(text);
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

/** RFC 3339 (JSON Feed) or RFC 822 (RSS) dates; null when missing or unreadable. */
function dateOf(value: string | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value.trim());
  return Number.isFinite(time) ? time : null;
}
