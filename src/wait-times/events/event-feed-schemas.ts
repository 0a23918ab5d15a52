import * as z from '../../platform/zod-mini.ts';
import { ParkEventSchema } from './event-schemas.ts';

// GET /api/parks/{slug}/events: a JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/) of a park's
// events. The Atom feed (event-feed.ts) carries the same items as XML, so it has no schema here.

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

const EventItemSchema = z
  .strictObject({
    id: z.string().check(z.describe('Stable and unique: the event id, `<park>/<type>/<ride id or "park">/<at>`.')),
    url: z.string().check(z.describe("The park's page on this site.")),
    title: z.string(),
    content_text: z
      .string()
      .check(z.describe('The event in a sentence, the park time, the 30-minute forecast and the credit.')),
    date_published: z.string().check(z.describe('RFC 3339: the sample that shows the event.')),
    tags: z.array(z.string()).check(z.describe('The event type.')),
    _park_event: ParkEventSchema.check(
      z.describe('The event as data (a JSON Feed extension): type, ride, wait now, forecast and the rest.'),
    ),
  })
  .check(z.meta({ id: 'EventFeedItem' }));

export const EventFeedSchema = z
  .strictObject({
    version: z.literal(JSON_FEED_VERSION),
    title: z.string(),
    home_page_url: z.string().check(z.describe("The park's page on this site.")),
    feed_url: z.string().check(z.describe('This feed, with its filters: the subscription.')),
    description: z.string().check(z.describe('What the feed tells, with the credit "Powered by Queue-Times.com".')),
    authors: z
      .array(z.strictObject({ name: z.string(), url: z.string() }))
      .check(z.describe('The credit, linked: "Powered by Queue-Times.com", https://queue-times.com/.')),
    language: z.literal('en'),
    items: z
      .array(EventItemSchema)
      .check(z.describe('The newest 100 matching events of the last 48 hours, newest first.')),
  })
  .check(z.meta({ id: 'EventFeed' }));

export type EventFeed = z.output<typeof EventFeedSchema>;
export type EventFeedItem = z.output<typeof EventItemSchema>;
