import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGatedBlobs } from '../server/blobs.mts';
import { writeRecord } from '../src/platform/store.ts';
import { ServedDayRecordSchema } from '../src/wait-times/accuracy/accuracy-schemas.ts';
import { gradeFinishedDays } from '../src/wait-times/accuracy/grade-days.ts';
import type { StoredServed } from '../src/wait-times/accuracy/served-forecasts.ts';
import { DayRecordSchema } from '../src/wait-times/day/history-schemas.ts';
import { dayBoundsOf } from '../src/wait-times/local-time.ts';
import { PARKS, type Park } from '../src/wait-times/parks.ts';

// `npm run bench grading` (run.mts): one grade-forecasts run over every park against one park, and
// the fresh local Blobs store the in-process benchmarks share.

const MINUTE = 60_000;
const fmt = (n: number) => n.toFixed(1);

export /** Blobs on a fresh gated store for `task`, with the requests it made by type. */
async function withBlobs<T>(task: () => Promise<T>): Promise<{ value: T; blobs: string }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'site-api-bench-blobs-'));
  const requests: string[] = [];
  const gated = await startGatedBlobs({
    directory,
    token: 'b',
    siteID: 'bench',
    onRequest: ({ type }) => void requests.push(type),
  });
  process.env.NETLIFY_BLOBS_CONTEXT = gated.context;
  try {
    const value = await task();
    const byType = Object.entries(Object.groupBy(requests, (type) => type)).map(
      ([type, all]) => `${all?.length} ${type}`,
    );
    return { value, blobs: byType.join(', ') };
  } finally {
    await gated.stop();
    delete process.env.NETLIFY_BLOBS_CONTEXT;
    await rm(directory, { recursive: true, force: true });
  }
}

const GRADED_DATE = '2026-07-04';
/**
 * A SYNTHETIC finished park-day, as the recorder would have left it: 60 rides polled every 5
 * minutes from 09:00 to 21:00 park time (145 polls), waits on a daily curve, every forecast served
 * 5 minutes off; the day record and the archive of served forecasts, written as they are stored.
 */
async function writeSyntheticDay(park: Park): Promise<void> {
  const { startsAt } = dayBoundsOf(GRADED_DATE, park.timezone);
  const times = Array.from({ length: 145 }, (_, step) => startsAt + 9 * 60 * MINUTE + step * 5 * MINUTE);
  const waitAt = (ride: number, step: number) => 5 * Math.round((40 + ride + 30 * Math.sin(step / 30)) / 5);
  const ids = Array.from({ length: 60 }, (_, ride) => ride);
  const day = {
    version: 1 as const,
    date: GRADED_DATE,
    times,
    rides: Object.fromEntries(
      ids.map((ride) => [String(ride), { name: `Ride ${ride}`, waits: times.map((_, step) => waitAt(ride, step)) }]),
    ),
  };
  const served = (ride: number, step: number, at: number): StoredServed => {
    const wait = waitAt(ride, step);
    return [wait, wait + 5, wait + 5, wait + 5, wait, wait, wait, at + 60 * MINUTE, Math.max(0, wait - 5)];
  };
  const archive = {
    version: 1 as const,
    date: GRADED_DATE,
    times,
    rides: Object.fromEntries(
      ids.map((ride) => [
        String(ride),
        { name: `Ride ${ride}`, served: times.map((at, step) => served(ride, step, at)) },
      ]),
    ),
  };
  await Promise.all([
    writeRecord('wait-times', `day/${park.slug}/${GRADED_DATE}`, DayRecordSchema, day),
    writeRecord('wait-times', `archive/${park.slug}/${GRADED_DATE}`, ServedDayRecordSchema, archive),
  ]);
}

/** The grading benchmark's table: 1 park-day against 17 (run.mts prints it). */
export async function gradingScenario(): Promise<{ title: string; header: string; rows: unknown[][] }> {
  const rows: unknown[][] = [];
  let baseline = Number.NaN;
  const after = Date.parse(`${GRADED_DATE}T00:00:00Z`) + 3 * 24 * 60 * MINUTE;
  for (const parks of [PARKS.slice(0, 1), PARKS]) {
    const { value: ms, blobs } = await withBlobs(async () => {
      await Promise.all(parks.map(writeSyntheticDay));
      const started = performance.now();
      const report = await gradeFinishedDays(after);
      if (report.graded.length !== parks.length) throw new Error(`graded ${report.graded.length} of ${parks.length}`);
      return performance.now() - started;
    });
    baseline = Number.isNaN(baseline) ? ms : baseline;
    rows.push([`${parks.length} park-days`, fmt(ms / 1000), fmt(ms / baseline), blobs]);
  }
  const header = 'graded | run s | run / one park | Blobs requests (writing the days included)';
  const title = 'grading: one grade-forecasts run over SYNTHETIC finished park-days (60 rides, 12 hours each)';
  return { title, header, rows };
}
