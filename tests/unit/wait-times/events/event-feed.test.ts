import { describe, expect, it } from 'vitest';
import { openApiOutline } from '../../../../src/discovery/openapi-document.ts';
import {
  feedEvents,
  feedMaxAgeSeconds,
  MAX_FEED_ITEMS,
  RECORDER_DONE_MS,
} from '../../../../src/wait-times/events/event-feed.ts';
import { eventFilterOf, filterQuery, matches } from '../../../../src/wait-times/events/event-filters.ts';
import { eventFeedExample } from '../../../../src/wait-times/events/event-openapi.ts';
import type { ParkEvent } from '../../../../src/wait-times/events/event-schemas.ts';
import { periodStartOf } from '../../../../src/wait-times/park-answer.ts';
import { readAtom, readJsonFeed } from '../../../support/feed-readers.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const PERIOD = 5 * MINUTE;

describe('how long a feed is cached', () => {
  // The goal: an event is in the feed within one recorder period of its sample. The recorder samples
  // at a period's start and has written within RECORDER_DONE_MS; any copy cached before that write
  // must be gone by then, and every copy made after it carries the event.
  it('never keeps a copy past a minute into the next period, so a sample shows within one period', () => {
    const start = Date.parse('2026-07-04T14:00:00Z');
    let longest = 0;
    for (let now = start; now < start + 2 * PERIOD; now += SECOND) {
      const expires = now + feedMaxAgeSeconds(now) * SECOND;
      const boundary = periodStartOf(now - RECORDER_DONE_MS) + PERIOD + RECORDER_DONE_MS;
      expect(expires, new Date(now).toISOString()).toBe(boundary);
      // A sample at the period start is written by the boundary: the copy made just before it expires then.
      longest = Math.max(longest, expires - periodStartOf(expires));
    }
    expect(longest).toBe(RECORDER_DONE_MS);
    expect(RECORDER_DONE_MS).toBeLessThan(PERIOD);
    // At least a second, never zero (Astro would not cache it at all).
    expect(feedMaxAgeSeconds(start + RECORDER_DONE_MS - 1)).toBe(1);
  });
});

describe('filters', () => {
  const event = (fields: Partial<ParkEvent>): ParkEvent => ({
    id: 'x',
    type: 'wait-below',
    park: 'epcot',
    at: 0,
    ride: { id: 7, name: 'Seven' },
    waitNow: 20,
    forecast: 25,
    band: 20,
    ...fields,
  });

  it('keeps events of any ride and any type named, with a wait at or under `below`', () => {
    const filter = eventFilterOf(new URLSearchParams('ride=7&ride=8&type=wait-below&type=ride-reopened&below=20'));
    expect(filter).toEqual({ rides: [7, 8], types: ['ride-reopened', 'wait-below'], below: 20 });
    expect(matches(filter, event({}))).toBe(true);
    expect(matches(filter, event({ waitNow: 25 }))).toBe(false);
    expect(matches(filter, event({ ride: { id: 9, name: 'Nine' } }))).toBe(false);
    expect(matches(filter, event({ type: 'wait-above' }))).toBe(false);
    expect(matches(filter, event({ type: 'ride-reopened', waitNow: 5 }))).toBe(true);
    // A park event has no ride and no wait: `below` and `ride` drop it, `type` alone does not.
    const opened = event({ type: 'park-opened', ride: null, waitNow: null, forecast: null });
    expect(matches(eventFilterOf(new URLSearchParams('below=60')), opened)).toBe(false);
    expect(matches(eventFilterOf(new URLSearchParams('type=park-opened')), opened)).toBe(true);
    expect(matches(eventFilterOf(new URLSearchParams('')), opened)).toBe(true);
  });

  it('holds the newest 100 that match, however many are kept', () => {
    const kept = Array.from({ length: 250 }, (_, index) =>
      event({ id: String(index), at: 1_000 - index, waitNow: index % 2 === 0 ? 10 : 40 }),
    );
    const below = feedEvents(kept, eventFilterOf(new URLSearchParams('below=20')));
    expect(below).toHaveLength(MAX_FEED_ITEMS);
    expect(below[0]?.id).toBe('0');
    expect(below.at(-1)?.id).toBe('198');
    expect(feedEvents(kept.slice(0, 30), eventFilterOf(new URLSearchParams('')))).toHaveLength(30);
  });

  it('reads unknown parameters as no filter and writes one query per filter', () => {
    const filter = eventFilterOf(new URLSearchParams('utm_source=x&ride=12&ride=3&ride=12'));
    expect(filter).toEqual({ rides: [3, 12], types: [], below: null });
    expect(filterQuery(filter)).toBe('?ride=3&ride=12');
    expect(filterQuery({ rides: [], types: [], below: null })).toBe('');
  });

  it.each([
    ['ride=', 'ride'],
    ['ride=-1', 'ride'],
    [`ride=1 (101 times)`, 'ride'],
    ['type=', 'type'],
    ['type=Ride-Down', 'type'],
    ['below=', 'below'],
    ['below=481', 'below'],
    ['below=1e2', 'below'],
  ])('refuses %s with a 400 naming %s', (query, parameter) => {
    const params = query.endsWith('(101 times)') ? 'ride=1&'.repeat(101) : query;
    expect(() => eventFilterOf(new URLSearchParams(params))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(`^bad filter ${parameter}: `) }),
    );
  });
});

describe('the feeds in the OpenAPI document', () => {
  it('describes both feeds with the park in the path, the three filters and every status', () => {
    const document = openApiOutline();
    for (const [path, type] of [
      ['/api/parks/{slug}/events', 'application/feed+json'],
      ['/api/parks/{slug}/events.atom', 'application/atom+xml'],
    ] as const) {
      const operation = document.paths[path]?.get as { parameters: { name: string; in: string }[]; responses: object };
      expect(operation.parameters.map(({ name, in: where }) => `${where}:${name}`)).toEqual([
        'path:slug',
        'query:ride',
        'query:type',
        'query:below',
      ]);
      expect(Object.keys(operation.responses).sort()).toEqual(['200', '304', '400', '404', '405', '503']);
      expect(Object.keys((operation.responses as Record<string, { content: object }>)['200']?.content ?? {})).toEqual([
        type,
      ]);
    }
    // The feeds came with 1.6.0; the version only grows (docs/contract.md).
    const [major, minor] = document.info.version.split('.').map(Number);
    expect(major === 1 && (minor ?? 0) >= 6).toBe(true);
  });

  it('takes its examples from the real rules and feeds: a valid JSON Feed and an Atom feedparser reads', async () => {
    const { json, atom } = eventFeedExample('https://site.example');
    const feed = readJsonFeed(JSON.stringify(json));
    expect(feed.items.map((item) => item.tags)).toEqual([['ride-down'], ['wait-below'], ['park-opened']]);
    const { items } = await readAtom(atom);
    expect(items.map((item) => item.title)).toEqual([
      'Test Track is down',
      'Soarin: 25 min wait, at or below 30 min',
      'EPCOT opened',
    ]);
  });
});
