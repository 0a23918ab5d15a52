import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FaultMode } from '../../../scripts/fake-http-server.mts';
import { syntheticSchedule } from '../../../scripts/fake-park-hours.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { writeRecord } from '../../../src/platform/store.ts';
import {
  PARK_HOURS_TIMING,
  parkHoursToday,
  publicDayOf,
  resetParkHoursMemory,
} from '../../../src/wait-times/hours/park-hours.ts';
import { StoredScheduleSchema } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { scheduleRowsOf } from '../../../src/wait-times/hours/themeparks-wiki.ts';
import { localDateOf } from '../../../src/wait-times/local-time.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

// parkHoursToday in-process against the local fake ThemeParks.wiki (SYNTHETIC schedules) and a
// real Blobs server: how often the provider is asked, and what its faults cost.
const HOUR = 3_600_000;
let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

const parkOf = (slug: string): Park => {
  const park = findPark(slug);
  if (!park) throw new Error(`no park ${slug}`);
  return park;
};
const schedulePath = (park: Park) => `/entity/${park.themeParksWikiId}/schedule`;
/** The public day the fake's SYNTHETIC schedule gives the park today. */
const expectedToday = (park: Park) => {
  const today = localDateOf(Date.now(), park.timezone);
  return publicDayOf(scheduleRowsOf(syntheticSchedule(park, today), 'expected'), today, park.timezone);
};

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
  blobs = await startLocalBlobs();
});
beforeEach(() => {
  upstream.reset();
  resetParkHoursMemory();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  process.env.PARK_HOURS_UPSTREAM_URL = 'http://127.0.0.1:9';
  await blobs.stop();
  await upstream.close();
});

describe('park hours, cached', () => {
  it('asks the provider once for many callers at once, with an identifying User-Agent', async () => {
    const park = parkOf('epcot');
    upstream.delayMs = 100;
    const answers = await Promise.all(Array.from({ length: 10 }, () => parkHoursToday(park)));
    expect(upstream.count(schedulePath(park))).toBe(1);
    expect(upstream.requests[0]?.headers['user-agent']).toMatch(/^site-api park hours \(\+http/);
    for (const hours of answers) expect(hours).toEqual(expectedToday(park));
    expect(answers[0]).not.toBeNull();
  });

  it('serves another instance from the copy in Blobs, and asks again only after 4 hours', async () => {
    const park = parkOf('alphaland');
    await parkHoursToday(park);
    resetParkHoursMemory(); // a second instance, cold
    expect(await parkHoursToday(park)).toEqual(expectedToday(park));
    expect(upstream.count(schedulePath(park))).toBe(1);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PARK_HOURS_TIMING.freshForMs + 1);
    await parkHoursToday(park);
    resetParkHoursMemory();
    await parkHoursToday(park);
    expect(upstream.count(schedulePath(park))).toBe(2);
  });

  it('takes a fresher copy another instance stored instead of asking again when its own copy ages out', async () => {
    const park = parkOf('epic-universe');
    await parkHoursToday(park);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PARK_HOURS_TIMING.freshForMs + 1);
    const today = localDateOf(Date.now(), park.timezone);
    const rows = scheduleRowsOf(syntheticSchedule(park, today, 'short'), 'another instance');
    await writeRecord('wait-times', `hours/${park.slug}`, StoredScheduleSchema, { fetchedAt: Date.now(), rows });
    expect(await parkHoursToday(park)).toEqual(publicDayOf(rows, today, park.timezone));
    expect(upstream.count(schedulePath(park))).toBe(1);
  });

  it.each<[string, FaultMode]>([
    ['answers 500', 'error-500'],
    ['sends HTML', 'html-error'],
    ['answers JSON that is not a schedule', 'wrong-shape'],
    ['hangs', 'hang'],
  ])('costs only the hours (null) when the provider %s and no copy is kept', async (_case, mode) => {
    const park = parkOf('zetawood');
    upstream.mode = mode;
    expect(await parkHoursToday(park)).toBeNull();
    // Then leaves it alone for a while instead of asking on every request.
    const asked = upstream.count(schedulePath(park));
    expect(await parkHoursToday(park)).toBeNull();
    expect(upstream.count(schedulePath(park))).toBe(asked);
  });

  it('answers from a copy up to 48 hours old while the provider is down, and null after', async () => {
    const park = parkOf('volcano-bay');
    const today = localDateOf(Date.now(), park.timezone);
    const rows = scheduleRowsOf(syntheticSchedule(park, today), 'stored');
    const store = (age: number) =>
      writeRecord('wait-times', `hours/${park.slug}`, StoredScheduleSchema, { fetchedAt: Date.now() - age, rows });
    upstream.mode = 'error-503';

    await store(47 * HOUR);
    expect(await parkHoursToday(park)).toEqual(expectedToday(park));

    resetParkHoursMemory();
    await store(49 * HOUR);
    expect(await parkHoursToday(park)).toBeNull();
  });
});
