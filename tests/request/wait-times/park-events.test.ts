import type { APIContext } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { GET as atomGet } from '../../../src/pages/api/parks/[slug]/events.atom.ts';
import { GET as jsonGet } from '../../../src/pages/api/parks/[slug]/events.ts';
import { answerConditional } from '../../../src/platform/cache/local-route-cache.ts';
import { readRecord } from '../../../src/platform/store.ts';
import { type ParkEvent, ParkEventsSchema, parkEventsKey } from '../../../src/wait-times/events/event-schemas.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { writeParkRecords } from '../../../src/wait-times/recorder/park-records.ts';
import { readAtom, readJsonFeed } from '../../support/feed-readers.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/**
 * A scripted day at EPCOT on the fake upstream, through the recorder in-process: the events it
 * keeps, then both feeds of them as a subscriber reads them (Atom through feedparser, JSON Feed
 * against its specification), their filters, errors and validators.
 */

const MINUTE = 60_000;
const EPCOT = findPark('epcot') as Park;
const DATE = '2026-07-04';
const local = (time: string) => localTime(EPCOT, `${DATE}T${time}`);
const hoursOf = onlyOpen(EPCOT, local('09:00:00'), local('21:00:00'));
const COASTER = 101;
const FLUME = 102;
const TOWER = 104;

/** Waits by ride at each poll (null: closed): the coaster climbs and falls through the bands, the flume bounces. */
const MORNING: [string, Record<number, number | null>][] = [
  ['09:00:20', { [COASTER]: 15, [FLUME]: 20, 103: null, 104: 40 }],
  ['09:05:20', { [COASTER]: 20, [FLUME]: 25, 103: null, 104: 40 }],
  ['09:10:20', { [COASTER]: 30, [FLUME]: 20, 103: null, 104: 45 }], // above 20: ten minutes past it
  ['09:15:20', { [COASTER]: 35, [FLUME]: 25, 103: null, 104: null }], // closed: a blip so far
  ['09:20:20', { [COASTER]: 35, [FLUME]: 20, 103: null, 104: null }], // down since its last open sample
  ['09:25:20', { [COASTER]: 40, [FLUME]: 25, 103: null, 104: null }], // above 30, 15 minutes after the last
  ['09:30:20', { [COASTER]: 45, [FLUME]: 20, 103: null, 104: null }],
  ['09:35:20', { [COASTER]: 50, [FLUME]: 25, 103: null, 104: 40 }], // back after 25 minutes
  ['09:40:20', { [COASTER]: 30, [FLUME]: 20, 103: null, 104: 40 }], // below 30
  ['09:45:20', { [COASTER]: 25, [FLUME]: 25, 103: null, 104: 40 }],
  ['09:50:20', { [COASTER]: 20, [FLUME]: 20, 103: null, 104: 40 }], // below 20, 10 minutes on: not told
  ['09:55:20', { [COASTER]: 15, [FLUME]: 25, 103: null, 104: 40 }],
  ['10:00:20', { [COASTER]: 10, [FLUME]: 20, 103: null, 104: 40 }], // below 10
];
const EVENING: [string, Record<number, number | null>][] = [
  ['20:30:20', { [COASTER]: 10, [FLUME]: 20, 103: null, 104: 40 }],
  ['20:35:20', { [COASTER]: 10, [FLUME]: null, 103: null, 104: 40 }],
  ['20:40:20', { [COASTER]: null, [FLUME]: null, 103: null, 104: null }], // closed, 20 minutes before closing
  ['20:45:20', { [COASTER]: null, [FLUME]: null, 103: null, 104: null }],
];
const EXPECTED = [
  ['09:00:20', 'park-opened', null, undefined],
  ['09:10:20', 'wait-above', COASTER, 20],
  ['09:20:20', 'ride-down', TOWER, undefined],
  ['09:25:20', 'wait-above', COASTER, 30],
  ['09:35:20', 'ride-reopened', TOWER, undefined],
  ['09:40:20', 'wait-below', COASTER, 30],
  ['10:00:20', 'wait-below', COASTER, 10],
  ['20:40:20', 'park-closed', null, undefined],
] as const;

const payloadOf = (waits: Record<number, number | null>) => ({
  lands: [
    {
      id: 1,
      name: 'World Discovery',
      rides: Object.entries(waits).map(([id, wait]) => ({
        id: Number(id),
        name: { 101: 'Test Coaster', 102: 'Test Flume', 103: 'Test Carousel', 104: 'Test Tower' }[id] ?? id,
        is_open: wait !== null,
        wait_time: wait ?? 0,
      })),
    },
  ],
  rides: [],
});

const harness = useRecorderHarness({ moving: false });
let upstream: FakeQueueTimes;
beforeAll(() => {
  upstream = harness.upstream();
});

/** Runs the recorder at each time of the script; after each run, the feed holds that sample's events. */
async function record(script: typeof MORNING) {
  for (const [time, waits] of script) {
    upstream.payloads[EPCOT.queueTimesId] = payloadOf(waits);
    at(local(time));
    const run = await runRecordWaitsJob({ hoursOf });
    expect(run.parks?.polled).toEqual([EPCOT.slug]);
    const sampled = ids((await stored()).filter((event) => event.at === local(time)));
    const feed = readJsonFeed(await (await get('json')).text());
    expect(feed.items.map((item) => item.id).slice(0, sampled.length), time).toEqual(sampled);
  }
}
const stored = async () => (await readRecord('wait-times', parkEventsKey(EPCOT.slug), ParkEventsSchema))?.events ?? [];
const get = (format: 'json' | 'atom', query = '', slug = EPCOT.slug, headers: Record<string, string> = {}) => {
  const url = new URL(`http://localhost/api/parks/${slug}/events${format === 'atom' ? '.atom' : ''}${query}`);
  const request = new Request(url, { headers });
  const context = { url, request, params: { slug }, cache: { set() {} }, locals: {} } as unknown as APIContext;
  return Promise.resolve((format === 'json' ? jsonGet : atomGet)(context)).then((response) =>
    answerConditional('GET', Object.fromEntries(request.headers), response),
  );
};
const ids = (events: readonly ParkEvent[]) => events.map((event) => event.id);

describe('events of a scripted day, and their feeds', () => {
  it('records exactly the expected events, once each, whatever runs again in a period', async () => {
    await record(MORNING);
    // A second run in the last period polls nothing: no event twice.
    expect((await runRecordWaitsJob({ hoursOf })).parks?.alreadyRecorded).toEqual([EPCOT.slug]);
    await record(EVENING);
    const events = await stored();
    const told = events.map((event) => [event.at, event.type, event.ride?.id ?? null, event.band]);
    expect(told).toEqual(EXPECTED.map(([time, ...rest]) => [local(time), ...rest]).toReversed());
    expect(new Set(ids(events)).size).toBe(events.length);
    expect(events.find((event) => event.type === 'wait-below' && event.band === 10)).toMatchObject({
      id: `epcot/wait-below/${COASTER}/${local('10:00:20')}`,
      ride: { id: COASTER, name: 'Test Coaster' },
      waitNow: 10,
    });
    // The ride down 25 minutes, by the outage rules: told at its second closed sample, then back. A
    // park with no outage history and an empty pool has no odds: null, resting on 0 outages.
    expect(events.filter((event) => event.ride?.id === TOWER)).toEqual([
      expect.objectContaining({ type: 'ride-reopened', downMinutes: 25, waitNow: 40 }),
      expect.objectContaining({ type: 'ride-down', downMinutes: 10, waitNow: null, reopenWithin: null, outages: 0 }),
    ]);
    // The answer's 30-minute forecast travels with the event.
    const running = events.filter((event) => event.waitNow !== null);
    expect(running.length).toBeGreaterThan(0);
    expect(running.every((event) => typeof event.forecast === 'number')).toBe(true);
    // No ride and direction twice inside 15 minutes.
    for (const event of events) {
      const near = events.filter(
        (other) =>
          other !== event &&
          other.type === event.type &&
          other.ride?.id === event.ride?.id &&
          Math.abs(other.at - event.at) < 15 * MINUTE,
      );
      expect(near).toEqual([]);
    }
  });

  it('serves the same events as JSON Feed 1.1 and Atom, newest first, with stable ids and the credit', async () => {
    at(local('21:30:00'));
    const events = await stored();
    const json = await get('json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
    expect(json.headers.get('netlify-vary')).toBe('query=ride|type|below');
    const feed = readJsonFeed(await json.text());
    expect(feed.items.map((item) => item.id)).toEqual(ids(events));
    expect(feed.authors).toEqual([{ name: 'Powered by Queue-Times.com', url: 'https://queue-times.com/' }]);
    expect(feed.items[0]).toMatchObject({ title: 'EPCOT closed', tags: ['park-closed'] });

    const atom = await get('atom');
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const atomBody = await atom.text();
    const { meta, items } = await readAtom(atomBody);
    expect(meta['#type']).toBe('atom');
    expect(meta.copyright).toBe('Powered by Queue-Times.com (https://queue-times.com/)');
    expect(meta.description).toContain('Powered by Queue-Times.com');
    // The credit's link, as HTML inside the subtitle (feedparser gives its text only).
    expect(atomBody).toContain(
      'Powered by &lt;a href=&quot;https://queue-times.com/&quot;&gt;Queue-Times.com&lt;/a&gt;',
    );
    expect(items.map((item) => item.guid)).toEqual(ids(events).map((id) => `tag:localhost,2026:${id}`));
    expect(items.map((item) => item.title)).toEqual(feed.items.map((item) => item.title));
    expect(items.map((item) => item.summary)).toEqual(feed.items.map((item) => item.content_text));
    expect(items.map((item) => item.pubdate?.getTime())).toEqual(events.map((event) => event.at));
    expect(items.find((item) => item.title.startsWith('Test Coaster: 10 min wait'))?.categories).toEqual([
      'wait-below',
    ]);
  });

  it('filters by ride, type and wait as the query asks, the same in both formats', async () => {
    at(local('21:30:00'));
    const cases: [string, string[]][] = [
      [`?ride=${COASTER}`, ['wait-below 10', 'wait-below 30', 'wait-above 30', 'wait-above 20']],
      ['?type=park-opened&type=park-closed', ['park-closed', 'park-opened']],
      [`?ride=${COASTER}&ride=${FLUME}&type=wait-below`, ['wait-below 10', 'wait-below 30']],
      ['?below=20', ['wait-below 10']],
      ['?type=wait-above&below=30', ['wait-above 20']], // told at a wait of 30
      ['?type=wait-above&below=25', []],
      [`?ride=${FLUME}`, []],
    ];
    for (const [query, expected] of cases) {
      const feed = readJsonFeed(await (await get('json', query)).text());
      const told = feed.items.map((item) => {
        const event = item._park_event as ParkEvent;
        return event.band === undefined ? event.type : `${event.type} ${event.band}`;
      });
      expect(told, query).toEqual(expected);
      expect(feed.feed_url, query).toBe(`http://localhost:4321/api/parks/epcot/events${query}`);
      const { items } = await readAtom(await (await get('atom', query)).text());
      expect(
        items.map((item) => item.categories[0]),
        query,
      ).toEqual(told.map((line) => line.split(' ')[0]));
    }
    // One subscription, one URL: the same filter in another order names the same feed.
    const reordered = readJsonFeed(await (await get('json', `?below=20&ride=${FLUME}&ride=${COASTER}`)).text());
    expect(reordered.feed_url).toBe(
      `http://localhost:4321/api/parks/epcot/events?ride=${COASTER}&ride=${FLUME}&below=20`,
    );
  });

  it('answers 400 naming the bad filter, 404 for an unknown park, and 304 to a matching ETag', async () => {
    at(local('21:30:00'));
    for (const [query, parameter] of [
      ['?ride=coaster', 'ride'],
      ['?ride=101&ride=1.5', 'ride'],
      ['?type=ride-broken', 'type'],
      ['?below=-5', 'below'],
      ['?below=10&below=20', 'below'],
      ['?below=999', 'below'],
    ]) {
      for (const format of ['json', 'atom'] as const) {
        const response = await get(format, query);
        expect(response.status, query).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const body = await response.json();
        expect(body.error, query).toMatch(new RegExp(`^bad filter ${parameter}: `));
        expect(body.issues, query).toEqual([{ path: parameter, message: expect.any(String) }]);
      }
    }
    const unknown = await get('atom', '', 'atlantis');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'unknown park' });

    const first = await get('atom', '?type=wait-below');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect((await get('atom', '?type=wait-below', EPCOT.slug, { 'If-None-Match': etag ?? '' })).status).toBe(304);
    // Another filter is another body: the validator does not match it.
    expect((await get('atom', '?type=wait-above', EPCOT.slug, { 'If-None-Match': etag ?? '' })).status).toBe(200);
  });
  it('returns the events a poll added from writeParkRecords, and none when the same sample comes again', async () => {
    const snapshot = (time: string, wait: number) => ({
      fetchedAt: localTime(EPCOT, `2026-07-05T${time}`),
      rides: [{ id: COASTER, name: 'Test Coaster', wait, open: true }],
    });
    const write = async (time: string, wait: number) => {
      at(localTime(EPCOT, `2026-07-05T${time}`));
      const { events } = await writeParkRecords(EPCOT, snapshot(time, wait), null);
      return events.map((event) => (event.band === undefined ? event.type : `${event.type} ${event.band}`));
    };
    // The next morning: the park opens and the ride is placed; then its wait jumps past three bands.
    expect(await write('09:00:20', 10)).toEqual(['park-opened']);
    expect(await write('09:05:20', 45)).toEqual(['wait-above 30']);
    expect(await write('09:05:20', 45)).toEqual([]);
  });
});
