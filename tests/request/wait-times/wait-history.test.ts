import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { type WaitHistory, WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { fromWallClock, localDateOf } from '../../../src/wait-times/local-time.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import type { HoursOf } from '../../../src/wait-times/recorder/record-waits.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

/**
 * GET /api/wait-times/history against the built server over a simulated evening: the server's
 * clock jumps to 21:30 UTC and moves on in 5-minute steps to 01:05 UTC; at every step the
 * recorder (record-waits, run here on the same Blobs store and clock, the two parks open all
 * evening) records, then the live waits and the day of both parks are asked for. Paris starts a new local day in that window (22:00 or
 * 23:00 UTC); Anaheim's day (from 07:00 or 08:00 UTC) runs across midnight UTC unbroken.
 */

const MINUTE = 60_000;
const STEPS = 44; // 3 hours 35 minutes
const LA = findPark('alphaland');
const PARIS = findPark('alphaland-paris');
if (!LA || !PARIS) throw new Error('parks missing');

let upstream: FakeQueueTimes;
let site: ServedSite;
/** How far the server's clock was moved in total (a restarted server must be moved again). */
let offset = 0;
let dataDir: string;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
const stepTimes: number[] = [];
/**
 * The two parks open all evening, the others closed (hours far ahead). Their closing falls at 23:30
 * park time, a usual day as the served site (hours unknown) takes it: a day closing by 19:00 would
 * learn into a profile of its own (day-kind.ts).
 */
const openAllEvening: HoursOf = async (park: Park) => {
  const far = Date.parse('2100-01-01T00:00:00Z');
  return park.slug === LA?.slug || park.slug === PARIS?.slug
    ? { opensAt: 0, closesAt: fromWallClock(Date.parse('2100-01-01T23:30:00Z'), park.timezone) }
    : { opensAt: far, closesAt: far + MINUTE };
};

/** One recorder run at the site's clock (this process's clock is real; the site's is `offset` ahead). */
async function recordAtSiteTime(): Promise<void> {
  const siteNow = Date.now() + offset;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(siteNow);
  try {
    const run = await runRecordWaitsJob({ hoursOf: openAllEvening });
    expect(run.parks?.polled.toSorted()).toEqual([LA?.slug, PARIS?.slug].toSorted());
  } finally {
    vi.useRealTimers();
  }
}

const siteEnv = () => ({ WAIT_TIMES_UPSTREAM_URL: upstream.url, NETLIFY_BLOBS_CONTEXT: blobs.context });

const history = async (target: ServedSite, slug: string): Promise<WaitHistory> => {
  const response = await fetch(`${target.url}/api/wait-times/history?park=${slug}`);
  expect(response.status).toBe(200);
  return WaitHistorySchema.parse(await response.json());
};

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  // A store this process shares with the sites (the recorder runs here); it outlives a restart.
  blobs = await startLocalBlobs();
  dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-history-'));
  site = await startServedSite({ env: siteEnv(), clock: true, dataDir });
  // The next 21:30 UTC at least a few minutes away.
  const now = Date.now();
  let start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate(), 21, 30);
  if (start < now + 5 * MINUTE) start += 24 * 60 * MINUTE;
  offset = start - now;
  await site.advanceClock(offset);
  for (let step = 0; step < STEPS; step++) {
    stepTimes.push(Date.now() + offset);
    await recordAtSiteTime();
    // Live waits and the day at every step. HEAD reaches the routes past the local route cache
    // (Astro caches GET only), so each step sees what the relay holds then.
    for (const slug of [LA.slug, PARIS.slug]) {
      for (const route of ['/api/wait-times', '/api/wait-times/history']) {
        expect((await fetch(`${site.url}${route}?park=${slug}`, { method: 'HEAD' })).status).toBe(200);
      }
    }
    if (step === STEPS - 1) break; // the tests below ask at the time of the last sample
    await site.advanceClock(5 * MINUTE);
    offset += 5 * MINUTE;
  }
}, 600_000); // 44 steps: under a minute here alone, several times that beside another suite
afterAll(async () => {
  await site?.stop();
  await blobs?.stop();
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await upstream?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET /api/wait-times/history over a simulated evening', () => {
  it('keeps one upstream request per park per 5 minutes: the recorder’s, none for the visitors', () => {
    expect(upstream.count(`/parks/${LA.queueTimesId}/queue_times.json`)).toBe(STEPS);
    expect(upstream.count(`/parks/${PARIS.queueTimesId}/queue_times.json`)).toBe(STEPS);
  });

  it('answers a west-coast park’s whole local day so far, across midnight UTC', async () => {
    const body = await history(site, LA.slug);
    const now = Date.now() + offset;
    expect(body.date).toBe(localDateOf(now, LA.timezone));
    expect(body.timeZone).toBe('America/Los_Angeles');
    expect(body.times).toHaveLength(STEPS);
    expect(body.times.every((at, index) => index === 0 || at > (body.times[index - 1] ?? 0))).toBe(true);
    expect(body.times.some((at) => new Date(at).getUTCHours() === 23)).toBe(true);
    expect(body.times.some((at) => new Date(at).getUTCHours() === 1)).toBe(true);
    expect(body.dayStartsAt).toBeLessThanOrEqual(body.times[0] ?? 0);
    expect(body.dayEndsAt).toBeGreaterThan(now);
    expect(body.updatedAt).toBe(body.times.at(-1));
    for (const ride of body.rides) {
      expect(ride.waits).toHaveLength(STEPS);
      expect(ride.usual).toHaveLength(48);
    }
    const names = body.rides.map((ride) => ride.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('learns the usual half hours from the evening and, with waits as usual, calls the crowd usual', async () => {
    const body = await history(site, LA.slug);
    const learned = body.rides.flatMap((ride) => ride.usual.filter((wait) => wait !== null));
    expect(learned.length).toBeGreaterThan(0);
    // The recorded payload does not move, so today is exactly the usual.
    expect(body.crowd).toMatchObject({ level: 'usual', ratio: 1 });
    expect(body.crowd.comparisons).toBeGreaterThanOrEqual(20);
    expect(body.crowd.rides).toBeGreaterThan(0);
  });

  it('has no outlook yet: nothing is learned about the hours still ahead, so every step is null (200)', async () => {
    const body = await history(site, LA.slug);
    // Half hours from the newest sample to local midnight, after midnight UTC.
    expect(body.outlookTimes.length).toBeGreaterThan(0);
    expect(body.outlookTimes[0]).toBeGreaterThan(body.updatedAt ?? 0);
    expect(body.outlookTimes.at(-1)).toBeLessThan(body.dayEndsAt);
    for (const ride of body.rides) {
      expect(ride.outlook).toEqual(Array(body.outlookTimes.length).fill(null));
      expect(ride.bestTime).toBeNull();
    }
  });

  it('starts a new day at the park’s own midnight: Paris shows only the samples since then', async () => {
    const body = await history(site, PARIS.slug);
    const after = stepTimes.filter((at) => at >= body.dayStartsAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(STEPS);
    expect(body.times).toHaveLength(after.length);
    expect(body.times.every((at) => at >= body.dayStartsAt && at < body.dayEndsAt)).toBe(true);
    expect(new Date(body.dayStartsAt).getUTCHours()).toBeGreaterThanOrEqual(22);
    expect(body.date).toBe(localDateOf(body.dayStartsAt, PARIS.timezone));
    expect(body.date).not.toBe(localDateOf(stepTimes[0] ?? 0, PARIS.timezone));
  });

  it('is the same day after a restart, and a second instance on the same Blobs sees the next recording', async () => {
    const before = await history(site, LA.slug);
    await site.stop();
    site = await startServedSite({ env: siteEnv(), clock: true, dataDir });
    await site.advanceClock(offset);
    expect((await history(site, LA.slug)).times).toEqual(before.times);

    const second = await startServedSite({ env: siteEnv(), clock: true, dataDir });
    try {
      await second.advanceClock(offset + 5 * MINUTE);
      await site.advanceClock(5 * MINUTE);
      offset += 5 * MINUTE;
      await recordAtSiteTime();
      const fromSecond = await history(second, LA.slug);
      expect(fromSecond.times.slice(0, -1)).toEqual(before.times);
      expect(fromSecond.times).toHaveLength(before.times.length + 1);
      // The first instance's cached answer is 5 minutes old: served once more while it refreshes.
      await expect
        .poll(async () => (await history(site, LA.slug)).times.slice(0, before.times.length + 1))
        .toEqual(fromSecond.times);
    } finally {
      await second.stop();
    }
  });

  it('answers HEAD, ETag/304, CORS and the same 400/404/405 as the live waits', async () => {
    const url = `${site.url}/api/wait-times/history?park=${LA.slug}`;
    // Past any refresh the tests above left running: a fresh copy from the route cache.
    let first = await fetch(url);
    await expect
      .poll(async () => {
        first = await fetch(url);
        return first.headers.get('x-astro-cache');
      })
      .toBe('HIT');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    expect((await fetch(url, { headers: { 'If-None-Match': etag ?? '' } })).status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const [path, status, error] of [
      ['/api/wait-times/history', 400, 'missing park'],
      ['/api/wait-times/history?park=', 400, 'missing park'],
      ['/api/wait-times/history?park=atlantis', 404, 'unknown park'],
    ] as const) {
      const response = await fetch(`${site.url}${path}`);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error: error });
    }
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
