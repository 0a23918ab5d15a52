import { serviceUnavailable } from '../../platform/errors.ts';
import {
  errorResponseObject,
  type JsonObject,
  PUBLIC_HEADERS,
  publicGet,
  ref,
  thrownBy,
} from '../../platform/openapi-vocabulary.ts';
import { fromWallClock } from '../local-time.ts';
import { findPark, PARK_SLUGS } from '../parks.ts';
import { MAX_WAIT_MINUTES } from '../wait-times-schemas.ts';
import { atomFeedOf, FEED_CONTENT_TYPES, type FeedFormat, jsonFeedOf, parkOfPath } from './event-feed.ts';
import { eventFilterOf, MAX_RIDE_FILTERS } from './event-filters.ts';
import { eventsOf, newestFirst } from './event-rules.ts';
import { EVENT_TYPES, type ParkEvent } from './event-schemas.ts';

/**
 * The example, by the real rules and feeds over SYNTHETIC polls (made up, never recorded): EPCOT
 * opens at 09:00, a ride's wait falls from 50 to 25 minutes, another is down from 09:05. Its links
 * name `siteUrl`, as the rest of the description does.
 */
export function eventFeedExample(siteUrl: string): { json: unknown; atom: string } {
  const park = findPark('epcot');
  if (!park) throw new Error('epcot is missing from the park table');
  const at = (time: string) => fromWallClock(Date.parse(`2026-07-04T${time}Z`), park.timezone);
  const ride = (id: number, name: string, wait: number | null) => ({
    id,
    name,
    wait: wait ?? 0,
    open: wait !== null,
    forecast: wait === null ? null : wait - 5,
  });
  const down = { ride: '159', from: at('09:05:00'), to: null, minutes: 10, censored: null };
  const day = { version: 1 as const, date: '2026-07-04', updatedAt: at('09:15:00'), holds: [] };
  const reopen = {
    version: 1 as const,
    builtAt: at('04:00:00'),
    buckets: [
      { elapsed: 5, reopenWithin: { '15': 0.35, '30': 0.55, '60': 0.7 }, outages: 412, scope: 'park' as const },
    ],
  };
  const polls = [
    { at: at('09:00:00'), rides: [ride(151, 'Soarin', 50), ride(159, 'Test Track', 40)], outages: null },
    { at: at('09:15:00'), rides: [ride(151, 'Soarin', 25), ride(159, 'Test Track', null)], outages: null },
    {
      at: at('09:20:00'),
      rides: [ride(151, 'Soarin', 25), ride(159, 'Test Track', null)],
      outages: { previous: { ...day, outages: [] }, next: { ...day, outages: [down] } },
    },
  ];
  let recent: ParkEvent[] = [];
  let sides = null;
  for (const poll of polls) {
    const result = eventsOf({ park, hours: null, reopen, ...poll, recent, sides });
    recent = [...result.events, ...recent].sort(newestFirst);
    sides = result.sides;
  }
  const place = { park, filter: { rides: [], types: [], below: null }, siteUrl };
  return { json: jsonFeedOf(place, recent), atom: atomFeedOf(place, recent, at('09:20:00')) };
}

const FILTERS = `Filters in the query make the URL the subscription: \`ride\` (a queue-times ride id, repeatable: any of them), \`type\` (an event type, repeatable: any of them), \`below\` (minutes: only events of a running ride whose wait now is at or under it); together, an event must pass each one given. \`?ride=159&type=wait-below&below=20\` tells when that ride's wait drops to 20 minutes or less.`;
const EVENTS = `The events (docs/alerts.md), written by the recorder from its 5-minute polls and kept 48 hours: \`ride-down\` (at the second closed sample, by the outage rules, with the reopen odds), \`ride-reopened\` (with how long it was down), \`wait-below\` and \`wait-above\` at the bands 10, 20, 30, 45 and 60 minutes (below a band at its value or less, above it only 10 minutes past it; at most one per ride and direction in 15 minutes), \`park-opened\`, \`park-closed\`, \`park-hold\` (5 or more rides closed in one sample). Each carries the ride, the wait now and the 30-minute forecast. The newest 100 that match, newest first; each item's id is stable. Cached until a minute past the next 5-minute period, when the recorder has written: an event is in the feed within one period of its sample.`;

const parameters: JsonObject[] = [
  {
    name: 'slug',
    in: 'path',
    required: true,
    description: 'Park slug, matched exactly (the same slugs as GET /api/wait-times).',
    schema: { type: 'string', enum: PARK_SLUGS },
    example: 'epcot',
  },
  {
    name: 'ride',
    in: 'query',
    description: `Only these rides (queue-times ride ids, as in GET /api/wait-times/days), at most ${MAX_RIDE_FILTERS}.`,
    schema: { type: 'array', items: { type: 'integer', minimum: 0 }, maxItems: MAX_RIDE_FILTERS },
    style: 'form',
    explode: true,
  },
  {
    name: 'type',
    in: 'query',
    description: 'Only these event types.',
    schema: { type: 'array', items: { type: 'string', enum: EVENT_TYPES } },
    style: 'form',
    explode: true,
  },
  {
    name: 'below',
    in: 'query',
    description: 'Only events of a running ride whose wait now is at or under this many minutes.',
    schema: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MINUTES },
    example: 20,
  },
];

const feedOperation = (format: FeedFormat, example?: { json: unknown; atom: string }) => {
  const type = FEED_CONTENT_TYPES[format];
  const what = format === 'json' ? 'JSON Feed 1.1' : 'Atom (RFC 4287)';
  const other =
    format === 'json'
      ? 'The same events as Atom: `/api/parks/{slug}/events.atom`, for readers without JSON Feed (Home Assistant, feedparser).'
      : 'The same events as JSON Feed 1.1: `/api/parks/{slug}/events`, each item with the event as data in `_park_event`.';
  return publicGet({
    operationId: format === 'json' ? 'getParkEvents' : 'getParkEventsAtom',
    summary: `What changed at a park in the last 48 hours, as ${what}: rides down and reopened, waits past bands, opening and closing`,
    description: `${EVENTS}\n\n${FILTERS}\n\n${other} The feed credits "Powered by Queue-Times.com", linked to https://queue-times.com/. The example is SYNTHETIC (made up, never recorded), run through the real rules and feed.`,
    tag: 'Wait times',
    parameters,
    ok: `The ${what} feed, newest first.`,
    content: {
      [type]: {
        schema: format === 'json' ? ref('EventFeed') : { type: 'string' },
        ...(example && { example: example[format] }),
      },
    },
    more: {
      '400': errorResponseObject(
        'A filter is malformed: `ride` not a whole number, `type` not an event type, `below` not whole minutes from 0 to 480 or given twice. The message and `issues` name it.',
        thrownBy(() => eventFilterOf(new URLSearchParams('type=ride-broken'))),
        PUBLIC_HEADERS,
      ),
      '404': errorResponseObject(
        '`slug` is not one of the 17 parks.',
        thrownBy(() => parkOfPath('atlantis')),
        PUBLIC_HEADERS,
      ),
      '503': errorResponseObject(
        'The stored events cannot be read right now.',
        serviceUnavailable('events unavailable'),
        PUBLIC_HEADERS,
      ),
    },
  });
};

/** Both feeds' paths, with `example` (`eventFeedExample`) where the whole description is built. */
export const eventFeedPaths = (example?: { json: unknown; atom: string }): Record<string, JsonObject> => ({
  '/api/parks/{slug}/events': feedOperation('json', example),
  '/api/parks/{slug}/events.atom': feedOperation('atom', example),
});
