import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeScheduleOf } from '../../../scripts/fake-park-hours.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { currentDayOf } from '../../../src/wait-times/hours/park-hours.ts';
import { ParkListSchema } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { scheduleRowsOf } from '../../../src/wait-times/hours/themeparks-wiki.ts';
import { findPark } from '../../../src/wait-times/parks.ts';
import { WaitTimesSchema } from '../../../src/wait-times/wait-times-schemas.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

// The served site with park hours from the local fake: Magic Kingdom's recorded schedule re-dated
// to today, SYNTHETIC days for the other parks (scripts/fake-park-hours.mts).
let upstream: FakeQueueTimes;
let hoursDown: FakeQueueTimes;
let site: ServedSite;
let siteWithoutHours: ServedSite;

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  [upstream, hoursDown, blobs] = await Promise.all([startFakeQueueTimes(), startFakeQueueTimes(), startLocalBlobs()]);
  hoursDown.mode = 'error-500';
  // The site without hours shares its store with this process, whose recorder run gives it a day.
  const withoutHours = { PARK_HOURS_UPSTREAM_URL: hoursDown.url, NETLIFY_BLOBS_CONTEXT: blobs.context };
  [site, siteWithoutHours] = await Promise.all([
    startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url, PARK_HOURS_UPSTREAM_URL: upstream.url } }),
    startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url, ...withoutHours } }),
  ]);
});
afterAll(async () => {
  await Promise.all([site?.stop(), siteWithoutHours?.stop()]);
  await Promise.all([upstream?.close(), hoursDown?.close(), blobs?.stop()]);
});

const getJson = async (from: ServedSite, path: string) => {
  const response = await fetch(`${from.url}${path}`);
  return { response, body: await response.json() };
};
/** What the fake's schedule says for a park now, read as the site reads it. */
const expectedHours = (slug: string) => {
  const park = findPark(slug);
  if (!park) throw new Error(`no park ${slug}`);
  const now = Date.now();
  return currentDayOf(scheduleRowsOf(fakeScheduleOf(park, now), 'expected'), now, park.timezone);
};

describe('GET /api/parks', () => {
  it("lists the 17 parks with today's hours and whether each is open now, cached", async () => {
    const { response, body } = await getJson(site, '/api/parks');
    expect(response.status).toBe(200);
    expect(ParkListSchema.parse(body)).toEqual(body);
    expect(body.parks).toHaveLength(17);
    expect(body.hoursSource).toBe('themeparks.wiki');
    for (const slug of ['magic-kingdom', 'beta-studios-hollywood', 'gammaworld-orlando']) {
      const park = body.parks.find((entry: { slug: string }) => entry.slug === slug);
      expect(park.hours, slug).toEqual(expectedHours(slug));
      const at = Date.parse(response.headers.get('date') ?? '');
      // The Date header has whole seconds; no opening or closing falls within one of them here.
      expect(park.openNow).toBe(park.hours.opensAt <= at && at < park.hours.closesAt);
    }
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('etag')).toMatch(/^"/);
    const again = await fetch(`${site.url}/api/parks`);
    expect(again.headers.get('x-astro-cache')).toBe('HIT');
    // One schedule request per park for both answers.
    expect(upstream.requests.filter((request) => request.path.startsWith('/entity/'))).toHaveLength(17);
  });

  it('answers 200 with every park unknown (never closed) when ThemeParks.wiki fails', async () => {
    const { response, body } = await getJson(siteWithoutHours, '/api/parks');
    expect(response.status).toBe(200);
    expect(
      body.parks.every((park: { hours: unknown; openNow: unknown }) => park.hours === null && park.openNow === null),
    ).toBe(true);
  });

  it.each([
    ['HEAD', 200],
    ['OPTIONS', 204],
    ['POST', 405],
  ])('answers %s with %i', async (method, status) => {
    const response = await fetch(`${site.url}/api/parks`, { method });
    expect(response.status).toBe(status);
  });
});

describe('hours beside the waits', () => {
  it("GET /api/wait-times/history carries the park's hours", async () => {
    const { response, body } = await getJson(site, '/api/wait-times/history?park=beta-studios-hollywood');
    expect(response.status).toBe(200);
    expect(WaitHistorySchema.parse(body)).toEqual(body);
    expect(body.hours).toEqual(expectedHours('beta-studios-hollywood'));
    expect(body.hours.extras.map((extra: { description: string }) => extra.description)).toContain(
      'Halloween Horror Nights',
    );
  });

  it('GET /api/wait-times/history costs only `hours` when ThemeParks.wiki fails', async () => {
    const offline = process.env.WAIT_TIMES_UPSTREAM_URL;
    process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
    try {
      // The recorder's run without hours (the usual day decides, none learned yet: every park polled).
      expect((await runRecordWaitsJob({ hoursOf: async () => null })).parks?.polled).toContain('epcot');
    } finally {
      process.env.WAIT_TIMES_UPSTREAM_URL = offline;
    }
    const { response, body } = await getJson(siteWithoutHours, '/api/wait-times/history?park=epcot');
    expect(response.status).toBe(200);
    expect(body.hours).toBeNull();
    expect(body.rides.length).toBeGreaterThan(0);
  });

  it('leaves the GET /api/wait-times body exactly as it was', async () => {
    const { body } = await getJson(site, '/api/wait-times?park=magic-kingdom');
    expect(Object.keys(body)).toEqual(['updatedAt', 'source', 'rides']);
    expect(WaitTimesSchema.parse(body)).toEqual(body);
  });
});
