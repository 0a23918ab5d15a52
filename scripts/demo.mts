import { PARKS } from '../src/wait-times/parks.ts';
import { startFakeQueueTimes } from './fake-queue-times.mts';
import { seedParkHistory } from './seed-history.mts';

/**
 * `npm run demo` (`scripts/start.mts --demo`, which builds first): the site against a local replay
 * of recorded queue-times payloads whose waits follow a day-shaped curve in each park's time zone,
 * so it works offline. Today runs a quarter busier than a usual day, and each park is seeded with
 * a learned usual day and today so far, so the charts and the crowd level show at once.
 */
const TODAY_CROWD = 1.25;
const upstream = await startFakeQueueTimes({ moving: true, crowd: TODAY_CROWD });
process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
process.env.DATA_DIR ??= '.data/demo';
console.info(`Demo: replaying recorded queue-times payloads from ${upstream.url}`);
await import('../server/main.mts');
// The server has started its Blobs store (NETLIFY_BLOBS_CONTEXT); EPCOT first, it is the one shown first.
const started = Date.now();
let seeded = 0;
for (const park of [...PARKS].sort((a, b) => Number(b.slug === 'epcot') - Number(a.slug === 'epcot'))) {
  if (await seedParkHistory(park.slug, Date.now(), TODAY_CROWD)) seeded += 1;
}
console.info(`Demo: seeded a usual day and today so far for ${seeded} parks in ${Date.now() - started} ms`);
