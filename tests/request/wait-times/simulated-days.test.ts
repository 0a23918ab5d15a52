import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIContext } from 'astro';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { runGradeForecastsJob } from '../../../src/jobs/grade-forecasts-job.ts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { GET } from '../../../src/pages/api/wait-times/days.ts';
import { readRecord } from '../../../src/platform/store.ts';
import { gradesKeyOf, ParkDayGradesSchema } from '../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { readDay } from '../../../src/wait-times/day/day-store.ts';
import { persistenceOf } from '../../../src/wait-times/forecast/forecast.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/live/live-waits.ts';
import { localDateOf, shiftDate } from '../../../src/wait-times/local-time.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import type { HoursOf } from '../../../src/wait-times/recorder/record-waits.ts';
import { resetRecorderMemory } from '../../../src/wait-times/recorder/record-waits.ts';
import type { WaitTimes } from '../../../src/wait-times/wait-times-schemas.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { localTime } from '../../support/recorder-harness.ts';

/**
 * Three days of a park whose waits follow a known pattern, through the recorder on a fake clock
 * and a fake upstream: every ride climbs 2 minutes every 5 minutes (12 per half hour) from its
 * opening wait, every day alike (SYNTHETIC waits). Two days teach each half hour the 10
 * observations a forecast needs; on the third the model forecasts the climb, and the grading of
 * that day equals a calculation from what GET /api/wait-times served (docs/accuracy.md).
 */

const MINUTE = 60_000;
const PARIS = findPark('alphaland-paris') as Park;
const FIRST_DAY = '2026-07-08';
const DAYS = [FIRST_DAY, shiftDate(FIRST_DAY, 1), shiftDate(FIRST_DAY, 2)];
const LAST_DAY = DAYS[2] as string;
const hoursOn = (date: string) => ({
  opensAt: localTime(PARIS, `${date}T19:00:00`),
  closesAt: localTime(PARIS, `${date}T21:00:00`),
});
/** Paris open 19:00–21:00 every day; every other park closed. */
const hoursOf: HoursOf = async (park) => {
  const hours = hoursOn(localDateOf(Date.now(), PARIS.timezone));
  const later = hours.opensAt + 48 * 60 * MINUTE;
  return park.slug === PARIS.slug ? hours : { opensAt: later, closesAt: later + 60 * MINUTE };
};
/** Three rides starting at 10, 20 and 30 minutes at 18:30, each 2 minutes more every 5 minutes. */
const RIDES = [
  { id: 1, name: 'Climbing Coaster', start: 10 },
  { id: 2, name: 'Climbing Carousel', start: 20 },
  { id: 3, name: 'Climbing Flume', start: 30 },
];
const payloadAt = (at: number, date: string) => {
  const steps = Math.round((at - localTime(PARIS, `${date}T18:30:00`)) / (5 * MINUTE));
  const rides = RIDES.map(({ id, name, start }) => ({ id, name, is_open: true, wait_time: start + 2 * steps }));
  return { lands: [{ id: 1, name: 'Everywhere', rides }], rides: [] };
};

/** What a visitor was served at each poll, day by day. */
const served: WaitTimes[][] = [];
let upstream: FakeQueueTimes;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
beforeAll(async () => {
  blobs = await startLocalBlobs();
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  resetWaitTimesMemory();
  resetRecorderMemory();
  for (const date of DAYS) served.push(await recordDay(date));
  vi.useRealTimers();
}, 600_000); // 111 recorder runs: about 15 s here, more on a busy machine
afterAll(async () => {
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  await upstream.close();
  await blobs.stop();
});
afterEach(() => vi.useRealTimers());
const run = promisify(execFile);
/** GET /api/wait-times/days in-process. */
const get = (query: string) => {
  const url = `http://localhost/api/wait-times/days?${query}`;
  return Promise.resolve(
    GET({ url: new URL(url), request: new Request(url), cache: { set() {} } } as unknown as APIContext),
  );
};
const at = (time: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(time);
};

/** One day through the recorder, 18:30 to 21:30 every 5 minutes: what a visitor was served at each poll. */
async function recordDay(date: string): Promise<WaitTimes[]> {
  const served: WaitTimes[] = [];
  const { opensAt, closesAt } = hoursOn(date);
  for (let time = opensAt - 30 * MINUTE + 20_000; time <= closesAt + 30 * MINUTE; time += 5 * MINUTE) {
    at(time);
    upstream.payloads[PARIS.queueTimesId] = payloadAt(time, date);
    expect((await runRecordWaitsJob({ hoursOf })).parks?.polled).toEqual([PARIS.slug]);
    resetWaitTimesMemory(); // a visitor's cold instance reads what the recorder stored
    served.push((await getWaitTimes(PARIS)).body);
  }
  return served;
}

describe('three simulated days of a park whose waits climb steadily', () => {
  it('grade each day once it is over, the third from the model’s forecasts as served', async () => {
    const third = served[2] ?? [];

    // 23:00 on the third day: the first two are graded, the third is not over.
    at(localTime(PARIS, `${LAST_DAY}T23:00:00`));
    const early = await runGradeForecastsJob();
    expect(early.message).toMatch(/^graded 2 .*, already graded 0, not finished 1, failed 0/);
    expect(await readRecord('wait-times', gradesKeyOf(PARIS.slug, LAST_DAY), ParkDayGradesSchema)).toBeNull();

    // The first day served no change (the wait now in 5-minute steps: nothing learned); the third forecasts the climb.
    const moved = (answers: WaitTimes[]) =>
      answers.flatMap((answer) => answer.rides).filter((ride) => ride.forecast !== persistenceOf(ride)).length;
    expect(moved(served[0] ?? [])).toBe(0);
    expect(moved(third)).toBeGreaterThan(third.length);

    at(localTime(PARIS, `${LAST_DAY}T23:59:00`) + 10 * MINUTE);
    expect((await runGradeForecastsJob()).message).toMatch(/^graded 1 \(alphaland-paris\/2026-07-10\)/);

    // The third day's 30-minute grades against a calculation from the answers served and the day recorded.
    const day = await readDay(PARIS.slug, LAST_DAY);
    const idOf = new Map(RIDES.map((ride) => [ride.name, String(ride.id)]));
    let [n, absError, absErrorPersistence] = [0, 0, 0];
    for (const answer of third) {
      const distances = (day?.times ?? []).map((time) => Math.abs(answer.updatedAt + 30 * MINUTE - time));
      const nearest = Math.min(...distances);
      const target = nearest <= 5 * MINUTE ? distances.indexOf(nearest) : -1;
      for (const ride of answer.rides) {
        const actual = day?.rides[idOf.get(ride.name) ?? '']?.waits[target];
        if (!ride.open || ride.forecast === null || target < 0 || actual === null || actual === undefined) continue;
        n += 1;
        absError += Math.abs(ride.forecast - actual);
        absErrorPersistence += Math.abs(ride.wait - actual);
      }
    }
    const graded = (await readRecord('wait-times', gradesKeyOf(PARIS.slug, LAST_DAY), ParkDayGradesSchema))
      ?.horizons[30];
    const oneDecimal = (value: number) => Math.round(value * 10) / 10;
    expect(n).toBeGreaterThan(90);
    expect(graded?.n).toBe(n);
    expect(oneDecimal((graded?.absError ?? 0) / n)).toBe(oneDecimal(absError / n));
    expect(oneDecimal((graded?.absErrorPersistence ?? 0) / n)).toBe(oneDecimal(absErrorPersistence / n));
    // No change misses the 12-minute climb (nearly) every time; the model, two days learned, by
    // minutes less (about 7 here: its median steps toward the climb a little each observation).
    expect(absErrorPersistence / n).toBeGreaterThan(11.5);
    expect(absError / n).toBeLessThan(absErrorPersistence / n - 3);
  });

  it('replay through npm run backtest from their CSV answers', async () => {
    at(localTime(PARIS, `${LAST_DAY}T23:59:00`) + 10 * MINUTE);
    const folder = await mkdtemp(path.join(tmpdir(), 'simulated-days-'));
    const files = await Promise.all(
      DAYS.map(async (date) => {
        const answer = await get(`park=${PARIS.slug}&date=${date}&format=csv`);
        expect(answer.status).toBe(200);
        const file = path.join(folder, `${PARIS.slug}-${date}.csv`);
        await writeFile(file, await answer.text());
        return file;
      }),
    );
    const backtest = path.resolve(import.meta.dirname, '../../../scripts/backtest.mts');
    const { stdout } = await run(process.execPath, [backtest, ...files, '--timezone', PARIS.timezone]);
    expect(stdout).toMatch(/^Data: queue-times\.com\. Powered by Queue-Times\.com/);
    // Three park-days in time order: the first trains (60 % of 3, rounded down), the other two validate.
    expect(stdout).toContain('training = the first\n60.0 %, 1 days; validation = the rest, 2 days.');
    expect(stdout).toContain('## VALIDATION (never tuned on): 2 days, 2026-07-09 … 2026-07-10');
    // Each ride a series of its own, scored at 30 minutes.
    for (const { id, name } of RIDES)
      expect(stdout).toMatch(new RegExp(`\\| ${name} \\(${id}\\) \\| all \\| [1-9]\\d* \\|`));
  }, 120_000);
});
