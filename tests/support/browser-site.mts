import { createECDH } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedParkHistory } from '../../scripts/demo/seed-history.mts';
import { ridesToTakeDown, seedOutages } from '../../scripts/demo/seed-outages.mts';
import { syntheticSchedule } from '../../scripts/fake-park-hours.mts';
import { recordedPayload, startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { startBlobsServer } from '../../server/blobs.mts';
import { writeRecord } from '../../src/platform/store.ts';
import { type HorizonSums, ParkDayGradesSchema } from '../../src/wait-times/accuracy/accuracy-schemas.ts';
import { blobsHistory, recordSample, sampleOf } from '../../src/wait-times/forecast/park-history.ts';
import { StoredScheduleSchema } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { scheduleRowsOf } from '../../src/wait-times/hours/themeparks-wiki.ts';
import { localDateOf, shiftDate } from '../../src/wait-times/local-time.ts';
import { findPark } from '../../src/wait-times/parks.ts';
import { ridesOf } from '../../src/wait-times/queue-times.ts';
import { QueueTimesParkSchema } from '../../src/wait-times/queue-times-schemas.ts';
import {
  EMBEDDER_PORT,
  PARK_WITH_DAY,
  PARK_WITH_HISTORY,
  SEEDED_CROWD,
  SITE_PORT,
  STUB_PUSH_ORIGIN,
  UPSTREAM_PORT,
} from './browser-harness.ts';

/** Per graded day, the forecasts graded at each horizon; the errors follow from `SEEDED_SKILL`. */
type GradedCounts = Record<30 | 60 | 120, number>;
/** Ten days: 30 minutes 12 % closer than no change, 60 minutes 5 % further, 120 minutes too few (20). */
const GRADED_DAYS: GradedCounts[] = Array.from({ length: 10 }, () => ({ 30: 421, 60: 400, 120: 2 }));
const SEEDED_SKILL = { 30: 0.12, 60: -0.05, 120: 0.3 } as const;

/**
 * The site as browser tests see it: the built server (as `npm run serve` runs it) against the
 * local replay of recorded queue-times payloads, with a fresh data folder. The fake upstream
 * listens on UPSTREAM_PORT, where its control endpoint lets tests make it slow, fail
 * or report a closed park without touching the site. A third server stands for someone else's
 * page that embeds the widget with one script tag.
 */

/** SYNTHETIC rides down at the park with a day: closed upstream, and their outages seeded. */
const DOWN_RIDES = ridesToTakeDown(PARK_WITH_DAY);
const withDay = findPark(PARK_WITH_DAY);
const upstream = await startFakeQueueTimes({
  port: UPSTREAM_PORT,
  closed: withDay ? { [withDay.queueTimesId]: DOWN_RIDES } : {},
});
const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-browser-'));
await seedHistory(dataDir, PARK_WITH_HISTORY);

process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
// The fake also serves ThemeParks.wiki's schedules (scripts/fake-park-hours.mts).
process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR = dataDir;
process.env.HOST = '127.0.0.1';
// The pages read what the tests steer and seed; the recorder's runs would change it between steps.
process.env.WAIT_TIMES_RECORDER = 'off';
// Push alerts on (tests/browser/push-alerts.test.ts): a fresh VAPID key pair, and the one push
// endpoint origin the tests' stubbed subscriptions use (a closed port: nothing is delivered there).
const vapid = createECDH('prime256v1');
vapid.generateKeys();
process.env.VAPID_PUBLIC_KEY = vapid.getPublicKey().toString('base64url');
process.env.VAPID_PRIVATE_KEY = vapid.getPrivateKey().toString('base64url');
process.env.VAPID_SUBJECT = 'mailto:owner@example.com';
process.env.PUSH_ALLOWED_ORIGINS = STUB_PUSH_ORIGIN;
await import('../../server/main.mts');
await serveEmbedder();

/**
 * "Another site": a page on its own origin, no CSP of ours, loading the widget from the site; the
 * third element shows the park with a seeded day, in the dark theme the page chose.
 */
async function serveEmbedder(): Promise<void> {
  const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Someone's blog</title>
  <style>.branded { --park-waits-accent: rgb(128, 0, 96); --park-waits-bg: rgb(255, 250, 240); }</style></head>
  <body>
    <park-waits park="epcot" class="branded" open-only sort="wait-desc"></park-waits>
    <park-waits park="atlantis"></park-waits>
    <park-waits park="${PARK_WITH_DAY}" theme="dark"></park-waits>
    <script src="http://127.0.0.1:${SITE_PORT}/widgets/park-waits.js" defer></script>
  </body>
</html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(EMBEDDER_PORT, '127.0.0.1', () => resolve()));
}

/**
 * Writes, before the site starts, the sample the site would have recorded 30 minutes ago: some
 * waits 15 minutes longer than the recorded payload (now falling), some 10 shorter (now rising).
 * The site's own Blobs server later serves the same folder.
 */
async function seedHistory(dataDir: string, slug: string): Promise<void> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const blobs = await startBlobsServer(dataDir);
  const now = ridesOf(QueueTimesParkSchema.parse(recordedPayload(park.queueTimesId)));
  const earlier = now.map((ride, index) => {
    if (!ride.open) return ride;
    if (index % 3 === 0) return { ...ride, wait: ride.wait + 15 };
    if (index % 3 === 1 && ride.wait >= 10) return { ...ride, wait: ride.wait - 10 };
    return ride;
  });
  await recordSample(
    blobsHistory(slug),
    sampleOf({ fetchedAt: Date.now() - 30 * 60_000, rides: earlier }),
    park.timezone,
  );
  await seedParkHistory(PARK_WITH_DAY, Date.now(), SEEDED_CROWD);
  if (!(await seedOutages(PARK_WITH_DAY, DOWN_RIDES, Date.now()))) throw new Error('no day to seed outages into');
  await seedClosingBeforeMidnight(PARK_WITH_DAY);
  await seedGrades(PARK_WITH_DAY, GRADED_DAYS);
  await seedGrades(slug, [{ 30: 25, 60: 20, 120: 10 }]);
  await blobs.stop();
}

/**
 * Gives the park with a day SYNTHETIC hours closing at 23:00 (08:00–23:00, Early Entry and an
 * Extended Evening), stored as a fresh ThemeParks.wiki fetch (`hours/<slug>`, park-hours.ts): its
 * outlook, which runs to midnight, is drawn to closing only. The harness picks the park whose
 * clock reads 06:00–21:59 (browser-harness.ts), so its closing is always ahead.
 */
async function seedClosingBeforeMidnight(slug: string): Promise<void> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const schedule = syntheticSchedule(park, localDateOf(Date.now(), park.timezone), 'extendedEvening');
  const rows = scheduleRowsOf(schedule, 'seeded schedule');
  await writeRecord('wait-times', `hours/${slug}`, StoredScheduleSchema, { fetchedAt: Date.now(), rows });
}

/**
 * Writes SYNTHETIC grades (`grades/<slug>/<date>`, as the grading job would, ParkDayGradesSchema)
 * for the days before today: made-up sums whose skill is SEEDED_SKILL, alternating a little from
 * day to day so the bootstrap gives an interval. No forecast was served or graded to make them.
 */
async function seedGrades(slug: string, days: readonly GradedCounts[]): Promise<void> {
  const park = findPark(slug);
  if (!park) throw new Error(`unknown park ${slug}`);
  const today = localDateOf(Date.now(), park.timezone);
  const sums = (n: number, skill: number, index: number): HorizonSums => {
    const persistence = n * 8;
    const jitter = index % 2 ? 0.03 : -0.03;
    const absError = persistence * (1 - skill + jitter);
    return {
      n,
      absError,
      error: absError / 4,
      absErrorPersistence: persistence,
      absErrorUsual: persistence * 1.5,
      within5: Math.round(n * 0.4),
      within10: Math.round(n * 0.7),
    };
  };
  for (const [index, counts] of days.entries()) {
    const date = shiftDate(today, -(index + 1));
    await writeRecord('wait-times', `grades/${slug}/${date}`, ParkDayGradesSchema, {
      version: 1,
      park: slug,
      date,
      gradedAt: Date.now(),
      horizons: {
        30: sums(counts[30], SEEDED_SKILL[30], index),
        60: sums(counts[60], SEEDED_SKILL[60], index),
        120: sums(counts[120], SEEDED_SKILL[120], index),
      },
      bestTime: { n: 0, atBest: 0, restMean: 0, regret: 0 },
    });
  }
}
