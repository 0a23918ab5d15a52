import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { parkOfPostedWaits } from '../../../scripts/backtest/touringplans.ts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { GET } from '../../../src/pages/api/wait-times/days.ts';
import { readDay } from '../../../src/wait-times/day/day-store.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

/** GET /api/wait-times/days over a day the recorder recorded in-process; its CSV replays through the backtest's reader. */

const MINUTE = 60_000;
const PARIS = findPark('alphaland-paris') as Park;
const DATE = '2026-07-10';
const local = (iso: string) => localTime(PARIS, iso);
const OPENS = local(`${DATE}T19:00:00`);
const CLOSES = local(`${DATE}T21:00:00`);
const hoursOf = onlyOpen(PARIS, OPENS, CLOSES);
useRecorderHarness();

const get = (query: string) => {
  const url = `http://localhost/api/wait-times/days?${query}`;
  return Promise.resolve(
    GET({ url: new URL(url), request: new Request(url), cache: { set() {} } } as unknown as APIContext),
  );
};

describe('GET /api/wait-times/days', () => {
  it('answers a recorded day once it has ended, as JSON and as a CSV the backtest replays', async () => {
    for (let time = OPENS + 20_000; time <= CLOSES + 30 * MINUTE; time += 5 * MINUTE) {
      at(time);
      await runRecordWaitsJob({ hoursOf });
    }
    at(local(`${DATE}T23:00:00`));
    const early = await get(`park=${PARIS.slug}&date=${DATE}`);
    expect(early.status).toBe(404);
    expect(await early.json()).toEqual({ error: expect.stringMatching(/^day not finished/) });
    expect((await get(`park=${PARIS.slug}&date=2026-7-10`)).status).toBe(400);

    at(local(`${DATE}T23:59:00`) + 10 * MINUTE);
    const day = await readDay(PARIS.slug, DATE);
    const json = await get(`park=${PARIS.slug}&date=${DATE}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const body = await json.json();
    expect(body.times).toEqual(day?.times);
    expect(body.rides.length).toBe(Object.keys(day?.rides ?? {}).length);
    expect(body.rides.some((ride: { served: unknown[] }) => ride.served.length > 0)).toBe(true);

    const csv = await get(`park=${PARIS.slug}&date=${DATE}&format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# Powered by Queue-Times\.com/);
    expect(lines[1]).toBe('ride_id,ride_name,date,datetime,SPOSTMIN,forecast');
    expect(lines[2]).toMatch(/^[^,]+,.+,07\/10\/2026,2026-07-10 19:00:\d\d,(-999|\d+),\d*$/);
    const samples = (day?.times.length ?? 0) * body.rides.length;
    expect(lines.length).toBe(2 + samples);
    expect(lines.filter((line) => /,\d+$/.test(line)).length).toBeGreaterThan(0); // forecasts served

    // The backtest's reader (npm run backtest FILE --timezone Europe/Paris) reads every ride and sample.
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'park-day-')), `${PARIS.slug}-${DATE}.csv`);
    await writeFile(file, text);
    const { park, skipped } = parkOfPostedWaits([{ path: file, ride: 'unused' }], PARIS.timezone);
    expect(skipped).toEqual([]);
    expect(park.rides.length).toBe(body.rides.length);
    for (const ride of park.rides) {
      const recorded = body.rides.find(
        (other: { id: string; name: string }) => ride.id === `${other.name} (${other.id})`,
      );
      expect(ride.observations.map((sample) => sample.at)).toEqual(
        day?.times.map((time) => Math.floor(time / 1000) * 1000),
      );
      expect(ride.observations.map((sample) => sample.wait)).toEqual(recorded.waits);
    }
  }, 300_000);
});
