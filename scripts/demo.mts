import path from 'node:path';
import { loadFunctions, scheduleFunctions } from '../server/functions.mts';
import { getConfig, loadConfig } from '../src/platform/config.ts';
import { MINUTE_MS } from '../src/platform/time-units.ts';
import { isInRecordingWindow, parkHoursToday } from '../src/wait-times/hours/park-hours.ts';
import { PARKS, type Park } from '../src/wait-times/parks.ts';
import {
  catchUpDemoPark,
  DEMO_DAYS_BEFORE,
  DEMO_WOBBLE,
  type DownRides,
  gradeDemoDays,
  seedDemoPark,
} from './demo/seed-demo.mts';
import { DOWN_SAMPLES, ridesToTakeDown, seedPastOutages } from './demo/seed-outages.mts';
import { borrowedFrom, startFakeQueueTimes } from './fake-queue-times.mts';

// `npm run demo` (start.mts builds first): the site offline against recorded queue-times payloads with
// moving waits (SYNTHETIC movement, fake-queue-times.mts) and park hours (fake-park-hours.mts). It
// starts serving at once, then seeds each park's last days through the recorder's own write in the
// background (demo/seed-demo.mts), today a quarter busier than usual; the scheduled functions start once
// every park is seeded, so that no live poll lands between two seeded ones. One open park (EPCOT
// when open) has three rides down (SYNTHETIC): closed upstream from 10, 45 and 75 minutes before
// the start, with 30 synthetic past days of outages its reopen odds learn from (demo/seed-outages.mts).
const TODAY_CROWD = 1.25;
/** Rides kept closed by the fake upstream, by queue-times park id: filled once the park is chosen. */
const closedRides: Record<number, number[]> = {};
const upstream = await startFakeQueueTimes({
  moving: true,
  crowd: TODAY_CROWD,
  wobble: DEMO_WOBBLE,
  labelled: true,
  closed: closedRides,
});
process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
// The same fake serves park hours: Magic Kingdom's recorded schedule re-dated to today, synthetic days elsewhere.
process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR ??= '.data/demo';
const schedules = loadConfig(process.env).LOCAL_SCHEDULES === 'on';
process.env.LOCAL_SCHEDULES = 'off';
console.info(`Demo: replaying recorded queue-times payloads and park schedules from ${upstream.url}`);
const borrowing = PARKS.flatMap((park) => {
  const source = borrowedFrom(park.queueTimesId);
  return source ? [`${park.name} ← ${source.name}`] : [];
});
console.info(
  `Demo: ${borrowing.length} parks have no recording of their own and show another park's rides, named "(borrowed from …)": ${borrowing.join(', ')}`,
);
await import('../server/main.mts');
// performance.now() counts from the process's start: the build check and the server's start included.
console.info(`Demo: serving ${(performance.now() / 1000).toFixed(1)} s after the start; seeding in the background`);

/** EPCOT first when open (the page shown first), then the parks in their recording window now, then the rest. */
async function seedingOrder(): Promise<{ order: Park[]; open: Set<string> }> {
  const now = Date.now();
  const inWindow = await Promise.all(PARKS.map(async (park) => isInRecordingWindow(await parkHoursToday(park), now)));
  const open = new Set(PARKS.filter((_, index) => inWindow[index]).map((park) => park.slug));
  const rank = (park: Park) => (park.slug === 'epcot' && open.has('epcot') ? 0 : open.has(park.slug) ? 1 : 2);
  return { order: [...PARKS].sort((a, b) => rank(a) - rank(b)), open };
}

const { order, open } = await seedingOrder();
// The rides down: at the first park open now, so that a ride down shows at any hour some park is open.
const downPark = order.find((park) => open.has(park.slug));
const downRides: DownRides = new Map(
  downPark
    ? ridesToTakeDown(downPark.slug).map((ride, index) => [
        ride,
        Date.now() - (DOWN_SAMPLES[index] ?? 2) * 5 * MINUTE_MS,
      ])
    : [],
);
if (downPark) {
  closedRides[downPark.queueTimesId] = [...downRides.keys()];
  await seedPastOutages(downPark.slug, Date.now());
  console.info(`Demo: ${downPark.name} has ${downRides.size} rides down (SYNTHETIC), with past outages to learn from`);
}
const downOf = (park: Park) => (park === downPark ? downRides : undefined);

// Two parks at a time (one waits on the store while the other computes); the grading runs between
// pairs, so that it never sees a park-day half written.
const SEEDING_AT_ONCE = 2;
const seedingStarted = performance.now();
let [seeded, polls, graded] = [0, 0, 0];
for (let first = 0; first < order.length; first += SEEDING_AT_ONCE) {
  const batch = order.slice(first, first + SEEDING_AT_ONCE);
  const written = await Promise.all(
    batch.map((park) =>
      seedDemoPark(park, Date.now(), TODAY_CROWD, downOf(park)).catch((error: Error) => {
        console.warn(`Demo: could not seed ${park.slug}: ${error.message}`);
        return false as const;
      }),
    ),
  );
  const done = batch.filter((_, index) => written[index] !== false);
  if (done.length === 0) continue;
  seeded += done.length;
  polls += written.reduce<number>((sum, count) => sum + (count || 0), 0);
  graded += await gradeDemoDays(Date.now());
  const elapsed = ((performance.now() - seedingStarted) / 1000).toFixed(0);
  console.info(`Demo: seeded ${done.map((park) => park.name).join(', ')} (${seeded} parks in ${elapsed} s)`);
}
// Seeding took minutes: each park polled up to now, so that no day has a gap before the live polls.
for (const park of order) polls += await catchUpDemoPark(park, Date.now(), TODAY_CROWD, downOf(park)).catch(() => 0);
const seconds = ((performance.now() - seedingStarted) / 1000).toFixed(1);
console.info(
  seeded === 0
    ? `Demo: every park already has today's records in ${process.env.DATA_DIR}: nothing to seed`
    : `Demo: seeded ${seeded} parks (${DEMO_DAYS_BEFORE} days and today so far, ${polls} polls through the recorder, ${graded} park-days graded) in ${seconds} s`,
);
if (schedules) {
  // As server/main.mts would have: every scheduled function on its schedule, the recorder first among them.
  const { SITE_URL: siteUrl } = getConfig();
  const functions = await loadFunctions(path.resolve(import.meta.dirname, '../netlify/functions'));
  const jobs = scheduleFunctions(functions, siteUrl, (task) => void task.catch(console.error));
  console.info(`Demo: running ${jobs.map(({ name }) => name).join(', ')} on their schedules`);
}
