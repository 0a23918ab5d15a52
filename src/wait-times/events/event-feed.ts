import { notFound, unavailableAs503 } from '../../platform/errors.ts';
import { MINUTE_MS } from '../../platform/time-units.ts';
import { periodStartOf } from '../park-answer.ts';
import { findPark, type Park } from '../parks.ts';
import { type EventFeed, type EventFeedItem, JSON_FEED_VERSION } from './event-feed-schemas.ts';
import { type EventFilter, eventFilterOf, filterQuery, matches } from './event-filters.ts';
import type { ParkEvent } from './event-schemas.ts';
import { readRecentEvents } from './event-store.ts';
import { eventText, eventTitle, QUEUE_TIMES_CREDIT, QUEUE_TIMES_URL } from './event-text.ts';

// The two feeds of a park's events (docs/alerts.md): JSON Feed 1.1 and Atom (RFC 4287), the same
// items. Plain strings built here; the endpoints only hand them to the response helper.

export type FeedFormat = 'json' | 'atom';
export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  json: 'application/feed+json',
  atom: 'application/atom+xml',
};

/**
 * The recorder runs at each 5-minute period's start and is done well within a minute; a feed is
 * cached until a minute into the next period, so an event shows within one period of its sample.
 */
export const RECORDER_DONE_MS = MINUTE_MS;
const PERIOD_MS = 5 * MINUTE_MS;

/** Seconds until a minute past the next period start: the feed's cache lifetime. */
export function feedMaxAgeSeconds(now: number): number {
  const next = periodStartOf(now - RECORDER_DONE_MS) + PERIOD_MS + RECORDER_DONE_MS;
  return Math.max(1, Math.ceil((next - now) / 1000));
}

/** The park a path names: 404 when it is not one of ours. */
export function parkOfPath(slug: string | undefined): Park {
  const park = slug === undefined ? undefined : findPark(slug);
  if (!park) throw notFound('unknown park');
  return park;
}

/** Where things are, for one park and one filter. */
interface FeedPlace {
  park: Park;
  filter: EventFilter;
  siteUrl: string;
}
const feedPath = (slug: string, format: FeedFormat) => `/api/parks/${slug}/events${format === 'atom' ? '.atom' : ''}`;
const feedUrl = ({ park, filter, siteUrl }: FeedPlace, format: FeedFormat) =>
  new URL(`${feedPath(park.slug, format)}${filterQuery(filter)}`, siteUrl).href;
const parkPage = ({ park, siteUrl }: FeedPlace) => new URL(`/parks/${park.slug}`, siteUrl).href;
const feedTitle = (park: Park) => `${park.name}: rides down and reopened, waits, park open and closed`;
const feedSummary = (park: Park) =>
  `What changed at ${park.name} in the last 48 hours, as this site's recorder saw it every 5 minutes.`;
const feedDescription = (park: Park) => `${feedSummary(park)} ${QUEUE_TIMES_CREDIT} (${QUEUE_TIMES_URL}).`;
const iso = (at: number) => new Date(at).toISOString();

/** The JSON Feed 1.1 of the events, newest first. */
export function jsonFeedOf(place: FeedPlace, events: readonly ParkEvent[]): EventFeed {
  const items = events.map(
    (event): EventFeedItem => ({
      id: event.id,
      url: parkPage(place),
      title: eventTitle(event, place.park),
      content_text: eventText(event, place.park),
      date_published: iso(event.at),
      tags: [event.type],
      _park_event: event,
    }),
  );
  return {
    version: JSON_FEED_VERSION,
    title: feedTitle(place.park),
    home_page_url: parkPage(place),
    feed_url: feedUrl(place, 'json'),
    description: feedDescription(place.park),
    authors: [{ name: QUEUE_TIMES_CREDIT, url: QUEUE_TIMES_URL }],
    language: 'en',
    items,
  };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);

/** An Atom entry id must be an IRI; a tag URI (RFC 4151) under the site's host keeps it stable. */
const entryId = (siteUrl: string, event: ParkEvent) => `tag:${new URL(siteUrl).hostname},2026:${event.id}`;

/**
 * The Atom feed (RFC 4287) of the events, newest first. `updated` is the newest event's time, or
 * with none the start of the period `now` falls in (a feed must have one).
 */
export function atomFeedOf(place: FeedPlace, events: readonly ParkEvent[], now: number): string {
  const updated = iso(events[0]?.at ?? periodStartOf(now));
  const page = xml(parkPage(place));
  // The credit as a link: HTML, escaped once more to sit in the XML.
  const subtitle = `${xml(feedSummary(place.park))} Powered by <a href="${QUEUE_TIMES_URL}">Queue-Times.com</a>.`;
  const entries = events.map((event) =>
    [
      '  <entry>',
      `    <id>${xml(entryId(place.siteUrl, event))}</id>`,
      `    <title>${xml(eventTitle(event, place.park))}</title>`,
      `    <updated>${iso(event.at)}</updated>`,
      `    <published>${iso(event.at)}</published>`,
      `    <link rel="alternate" type="text/html" href="${page}"/>`,
      `    <category term="${event.type}"/>`,
      // A summary rather than content: Home Assistant's feedreader hands automations `summary`.
      `    <summary type="text">${xml(eventText(event, place.park))}</summary>`,
      '  </entry>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${xml(feedUrl(place, 'atom'))}</id>`,
    `  <title>${xml(feedTitle(place.park))}</title>`,
    `  <subtitle type="html">${xml(subtitle)}</subtitle>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(feedUrl(place, 'atom'))}"/>`,
    `  <link rel="alternate" type="text/html" href="${page}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${xml(feedUrl(place, 'json'))}"/>`,
    `  <link rel="via" href="${QUEUE_TIMES_URL}" title="${QUEUE_TIMES_CREDIT}"/>`,
    `  <author><name>${xml(new URL(place.siteUrl).hostname)}</name><uri>${xml(new URL('/', place.siteUrl).href)}</uri></author>`,
    `  <rights>${xml(`${QUEUE_TIMES_CREDIT} (${QUEUE_TIMES_URL})`)}</rights>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/**
 * A busy park tells a few hundred events a day (docs/alerts.md, "Costs"); a feed holds the newest
 * this many that match, which readers polling every 5 minutes to an hour never miss.
 */
export const MAX_FEED_ITEMS = 100;

/** The kept events (newest first) a filter lets through, at most `MAX_FEED_ITEMS`. */
export const feedEvents = (kept: readonly ParkEvent[], filter: EventFilter) =>
  kept.filter((event) => matches(filter, event)).slice(0, MAX_FEED_ITEMS);

/**
 * A park's feed as a request asks for it: the filter from the query (400 naming a bad one), the
 * kept events that match, the body in the format, and how long it may be cached. Blobs failing is a 503.
 */
export async function getEventFeed(
  park: Park,
  params: URLSearchParams,
  format: FeedFormat,
  { siteUrl, now = Date.now() }: { siteUrl: string; now?: number },
): Promise<{ body: string; contentType: string; maxAgeSeconds: number }> {
  const filter = eventFilterOf(params);
  const kept = await unavailableAs503('events unavailable', () => readRecentEvents(park.slug, now));
  const events = feedEvents(kept, filter);
  const place = { park, filter, siteUrl };
  const body = format === 'json' ? JSON.stringify(jsonFeedOf(place, events)) : atomFeedOf(place, events, now);
  return { body, contentType: FEED_CONTENT_TYPES[format], maxAgeSeconds: feedMaxAgeSeconds(now) };
}
