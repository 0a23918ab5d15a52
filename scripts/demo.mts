import { PARKS } from '../src/wait-times/parks.ts';
import { startFakeQueueTimes } from './fake-queue-times.mts';
import { seedParkHistory } from './seed-history.mts';
import { ridesToTakeDown, seedOutages, seedPastOutages } from './seed-outages.mts';

// `npm run demo` (start.mts builds first): the site offline against recorded queue-times payloads with
// moving waits and park hours (scripts/fake-park-hours.mts), today a quarter busier than the usual day each park is seeded with (seed-history.mts).
const TODAY_CROWD = 1.25;
/** EPCOT's rides kept down (SYNTHETIC, seed-outages.mts): closed upstream, their outages seeded. */
const EPCOT_DOWN = ridesToTakeDown('epcot');
const upstream = await startFakeQueueTimes({ moving: true, crowd: TODAY_CROWD, closed: { 5: EPCOT_DOWN } });
process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
// The same fake serves park hours: Magic Kingdom's recorded schedule re-dated to today, synthetic days elsewhere.
process.env.PARK_HOURS_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR ??= '.data/demo';
console.info(`Demo: replaying recorded queue-times payloads and park schedules from ${upstream.url}`);
await import('../server/main.mts');
// The server has started its Blobs store (NETLIFY_BLOBS_CONTEXT); EPCOT first, it is the one shown first.
const started = Date.now();
let seeded = 0;
for (const park of [...PARKS].sort((a, b) => Number(b.slug === 'epcot') - Number(a.slug === 'epcot'))) {
  if (!(await seedParkHistory(park.slug, Date.now(), TODAY_CROWD))) continue;
  seeded += 1;
  // A fresh day at EPCOT: rides down now, and past outages the recorder's reopen odds learn from.
  if (park.slug === 'epcot' && (await seedOutages(park.slug, EPCOT_DOWN, Date.now())))
    await seedPastOutages(park.slug, Date.now());
}
console.info(`Demo: seeded a usual day and today so far for ${seeded} parks in ${Date.now() - started} ms`);
