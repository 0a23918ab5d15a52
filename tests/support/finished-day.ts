import path from 'node:path';
import { startGatedBlobs } from '../../server/blobs.mts';
import { writeRecord } from '../../src/platform/store.ts';
import { ServedDayRecordSchema } from '../../src/wait-times/accuracy/accuracy-schemas.ts';
import type { StoredServed } from '../../src/wait-times/accuracy/served-forecasts.ts';
import { DayRecordSchema } from '../../src/wait-times/day/history-schemas.ts';

/** The finished day `startFullSite` writes: GET /api/wait-times/days?park=epcot&date=2026-01-15 answers 200. */
export const FINISHED_DAY = '2026-01-15';
export const FINISHED_DAY_PARK = 'epcot';

/**
 * Writes a finished EPCOT day (three samples of two rides, one closed once, and what was served)
 * into a served site's own Blobs folder (`<dataDir>/blobs`, site `local`: server/blobs.mts) through
 * a second gate, as `npm run job` reaches it, before any request reads it.
 */
export async function seedFinishedDay(dataDir: string): Promise<void> {
  const blobs = await startGatedBlobs({ directory: path.join(dataDir, 'blobs'), token: 'seed', siteID: 'local' });
  const saved = process.env.NETLIFY_BLOBS_CONTEXT;
  process.env.NETLIFY_BLOBS_CONTEXT = blobs.context;
  try {
    const times = [0, 5, 10].map((minutes) => Date.parse(`${FINISHED_DAY}T15:00:00Z`) + minutes * 60_000);
    const served = (wait: number): StoredServed => [wait, wait + 5, wait + 5, wait, null, null, null, null, null];
    const names = { '1': 'Soarin’, Around the World', '2': 'Test Track' };
    await writeRecord('wait-times', `day/${FINISHED_DAY_PARK}/${FINISHED_DAY}`, DayRecordSchema, {
      version: 1,
      date: FINISHED_DAY,
      times,
      rides: { '1': { name: names['1'], waits: [45, null, 50] }, '2': { name: names['2'], waits: [60, 65, 70] } },
    });
    await writeRecord('wait-times', `archive/${FINISHED_DAY_PARK}/${FINISHED_DAY}`, ServedDayRecordSchema, {
      version: 1,
      date: FINISHED_DAY,
      times,
      rides: {
        '1': { name: names['1'], served: [served(45), null, served(50)] },
        '2': { name: names['2'], served: [served(60), served(65), served(70)] },
      },
    });
  } finally {
    if (saved === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
    else process.env.NETLIFY_BLOBS_CONTEXT = saved;
    await blobs.stop();
  }
}
