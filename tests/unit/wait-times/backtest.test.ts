import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parkOfDayLog, parseDayLog, toDayLog } from '../../../scripts/backtest/day-log.ts';
import { fitLad } from '../../../scripts/backtest/fit.ts';
import { parsePostedWaits, splitByRide } from '../../../scripts/backtest/posted-waits.ts';
import { bestTimeCheck, type ParkSeries, postedAt, replay } from '../../../scripts/backtest/replay.ts';
import { parkOfPostedWaits } from '../../../scripts/backtest/touringplans.ts';
import { gridSamples } from '../../../src/wait-times/forecast/park-history.ts';
import type { ProfileBucket, WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { EASTERN, eastern, loadSlice } from '../../support/touringplans.ts';
import { halfHour } from '../../support/wait-profile.ts';

const MINUTE = 60_000;
const asUtc = (wall: number) => wall;
const at = (reading: string) => Date.parse(`${reading.replace(' ', 'T')}Z`);
const LOG_DIR = path.resolve(import.meta.dirname, '../../../fixtures/queue-times-log');
const readLog = (name: string) => readFileSync(path.join(LOG_DIR, name), 'utf8');

/** One ride `r` posting `waits` every 10 minutes from `start` (UTC), the park sampled at the same moments. */
function oneRide(start: string, waits: readonly (number | null)[]): ParkSeries {
  const observations = waits.map((wait, i) => ({ at: at(start) + i * 10 * MINUTE, wait }));
  return {
    rides: [{ id: 'r', name: 'R', observations }],
    samples: observations.map(({ at: time, wait }) => ({ at: time, waits: { r: wait } })),
  };
}

/** The same waits on several days, one park. */
function days(dates: readonly string[], waits: (date: string) => readonly (number | null)[]): ParkSeries {
  const parks = dates.map((date) => oneRide(`${date} 10:00`, waits(date)));
  const observations = parks.flatMap((park) => park.rides[0]?.observations ?? []);
  return { rides: [{ id: 'r', name: 'R', observations }], samples: parks.flatMap((park) => park.samples) };
}

describe('parsePostedWaits (TouringPlans.com CSV)', () => {
  it.each([
    ['the README order', 'date,datetime,SPOSTMIN,SACTMIN\n02/22/2019,2019-02-22 11:40:00,30,\n'],
    ['the R package order', 'date,datetime,SACTMIN,SPOSTMIN\n02/22/2019,2019-02-22 11:40:00,,30\n'],
    ['only the two columns, CRLF, quoted', '"datetime","SPOSTMIN"\r\n"2019-02-22 11:40","30"\r\n'],
  ])('finds the columns by name (%s)', (_case, csv) => {
    expect(parsePostedWaits(csv, asUtc).samples).toEqual([{ at: at('2019-02-22 11:40'), day: '2019-02-22', wait: 30 }]);
  });

  it.each([
    ['a later row at the same time wins', '2019-02-19 14:02:00,-999\n2019-02-19 14:02:00,255', 1, 255, 0],
    ['-999 is down', '2019-02-19 14:02:00,-999', 1, null, 0],
    ['a bad time is skipped and counted', '2019-02-30 10:00:00,10\nyesterday,10', 0, undefined, 2],
    ['a negative other than -999 is skipped and counted', '2019-02-19 10:00:00,-5', 0, undefined, 1],
  ])('%s', (_case, rows, count, wait, skipped) => {
    const series = parsePostedWaits(`datetime,SPOSTMIN\n${rows}`, asUtc);
    expect([series.samples.length, series.samples[0]?.wait, series.skipped]).toEqual([count, wait, skipped]);
  });

  it('refuses a file without the columns it needs, naming them', () => {
    expect(() => parsePostedWaits('date,time,posted\n', asUtc)).toThrow(/"datetime" and "SPOSTMIN"/);
  });
});

describe('long CSVs of GET /api/wait-times/days', () => {
  const day = (date: string, us: string) =>
    [
      '# Powered by Queue-Times.com (https://queue-times.com/). EPCOT, a comment line the reader skips.',
      'ride_id,ride_name,date,datetime,SPOSTMIN,forecast',
      `1,"Soarin’, Around the World",${us},${date} 10:00:00,45,50`,
      `1,"Soarin’, Around the World",${us},${date} 10:05:00,-999,`,
      `2,Test Track,${us},${date} 10:00:00,60,65`,
      '',
    ].join('\n');

  it('splits a file into one CSV per ride, named by ride_name, skipping # lines', () => {
    const rides = splitByRide(day('2026-01-15', '01/15/2026'));
    expect(rides?.map(({ id, name }) => [id, name])).toEqual([
      ['1', 'Soarin’, Around the World'],
      ['2', 'Test Track'],
    ]);
    const soarin = parsePostedWaits(rides?.[0]?.text ?? '', asUtc);
    expect(soarin.samples.map((sample) => sample.wait)).toEqual([45, null]);
    expect(splitByRide('datetime,SPOSTMIN\n2019-02-24 09:00:00,10')).toBeUndefined();
  });

  it('reads one series per ride across the files of several days', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'days-csv-'));
    const files = [
      ['2026-01-15', '01/15/2026'],
      ['2026-01-16', '01/16/2026'],
    ].map(([date = '', us = '']) => {
      const file = path.join(dir, `epcot-${date}.csv`);
      writeFileSync(file, day(date, us));
      return { path: file, ride: 'unused' };
    });
    const { park, skipped } = parkOfPostedWaits(files, 'UTC');
    expect(skipped).toEqual([]);
    expect(park.rides.map((ride) => [ride.name, ride.observations.length])).toEqual([
      ['Soarin’, Around the World (1)', 4],
      ['Test Track (2)', 2],
    ]);
  });
});

describe('gridSamples', () => {
  it('samples the park every 5 minutes as the service would: each ride’s last wait if at most 15 minutes old', () => {
    const ride = (id: string, rows: [string, number | null][]) => ({
      id,
      samples: rows.map(([time, wait]) => ({ at: at(time), day: 'd', wait })),
    });
    const samples = gridSamples([
      ride('a', [
        ['2019-02-19 10:02', 30],
        ['2019-02-19 10:21', null],
      ]),
      ride('b', [['2019-02-19 10:05', 5]]),
    ]);
    expect(samples.map(({ at: time, waits }) => [new Date(time).toISOString().slice(11, 16), waits])).toEqual([
      ['10:05', { a: 30, b: 5 }],
      ['10:10', { a: 30, b: 5 }],
      ['10:15', { a: 30, b: 5 }],
      ['10:20', { a: null, b: 5 }], // a is 18 minutes old: closed; b 15 minutes: still posted
    ]);
  });
});

describe('postedAt', () => {
  const series = [0, 10, 30, 44].map((minute, i) => ({ at: minute * MINUTE, wait: i === 2 ? null : i * 10 }));
  it.each([
    // [minute, nearest either side?, wait]: the observation at or before (or nearest), at most 15 minutes away
    [10, false, 10],
    [24, false, 10],
    [26, false, undefined], // 16 minutes old
    [40, false, null], // the ride was down
    [59, false, 30],
    [60, false, undefined],
    [26, true, null], // nearest: 30 (down), 4 minutes after
    [38, true, 30], // nearest: 44, 6 minutes after (30 is 8 before)
  ])('at minute %i (nearest: %s) the wait is %s', (minute, nearest, wait) => {
    expect(postedAt(series, minute * MINUTE, nearest)).toBe(wait);
  });
});

describe('replay on a hand-made ride', () => {
  // 10:00 to 12:00, every 10 minutes, +10 each time: every wait is 30 lower than 30 minutes later.
  const ramp = oneRide('2024-05-01 10:00', [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130]);

  it('scores every open origin with an outcome, apart by segment, exactly', async () => {
    const { days: split, tally } = await replay(ramp, { timeZone: 'UTC', trainShare: 0.5, horizons: [30, 60] });
    expect(split).toEqual({ training: [], validation: ['2024-05-01'] });
    // A day teaches too little (fewer than 10 changes per half hour): ours is persistence, the usual day unknown.
    const persistence = (n: number, errors: number) => ({
      n,
      ours: errors,
      persistence: errors,
      usual: errors,
      usualUnknown: n,
    });
    // Origins 10:00–11:30 miss by 30; 11:40 by 20 (its outcome is the wait posted at 12:00, 10 minutes old).
    expect(tally.get('validation', 'R', 'all 30')).toEqual(persistence(11, 10 * 30 + 20));
    expect(tally.get('validation', 'pooled', 'first hour 30')).toEqual(persistence(6, 6 * 30));
    expect(tally.get('validation', 'R', 'wait ≥ 40 30')).toEqual(persistence(5, 4 * 30 + 20));
    expect(tally.get('validation', 'R', 'rest 30')).toBeUndefined();
    expect(tally.get('validation', 'R', 'all 60')).toEqual(persistence(8, 7 * 60 + 50));
  });

  it('checks the best time at the first open sample and hourly after: none while no half hour is usual yet', async () => {
    const { tally } = await replay(ramp, { timeZone: 'UTC', trainShare: 0.5, horizons: [] });
    // 10:00 and 11:00; 12:00 has nothing after it. One day is too little for a usual day, so the
    // outlook says nothing and there is no best time (bestTimeCheck below scores one).
    expect(tally.get('validation', 'R', 'best time')).toEqual({ checks: 2, noBestTime: 2 });
  });

  it('never lets a validation day tune: changing those days changes neither the fit nor the training figures', async () => {
    const dates = ['2024-05-01', '2024-05-02', '2024-05-03', '2024-05-04', '2024-05-05', '2024-05-06'];
    const waits = (scale: number) => [10, 20, 30, 40, 50, 60, 70, 80, 90].map((wait) => wait * scale);
    const park = (validationScale: number) => days(dates, (date) => waits(date >= '2024-05-04' ? validationScale : 1));
    const options = { timeZone: 'UTC', trainShare: 0.6, horizons: [30, 60] };
    const [first, second] = [await replay(park(1), options), await replay(park(3), options)];
    expect(first.days).toEqual({ training: dates.slice(0, 3), validation: dates.slice(3) });
    expect(first.tally.get('training', 'pooled', 'all 30')).toEqual(second.tally.get('training', 'pooled', 'all 30'));
    expect(first.tally.get('validation', 'pooled', 'all 30')).not.toEqual(
      second.tally.get('validation', 'pooled', 'all 30'),
    );
    const fitRows = async (validationScale: number) =>
      (await replay(park(validationScale), { ...options, fitOnly: true })).fitRows;
    expect(await fitRows(1)).toEqual(await fitRows(3));
  });
});

describe('bestTimeCheck', () => {
  // Usual 60 from 10:00 to 12:59 and 10 from 13:00 to 15:59 (learned, no change expected); posted alike.
  const bucket = (level: number) => halfHour(level, { near: [0, 10] });
  const profile = (extra: Record<string, ProfileBucket> = {}): WaitProfile => ({
    version: 1,
    learnedThrough: 0,
    rides: {
      r: {
        seen: 0,
        buckets: { ...Object.fromEntries([20, 21, 22, 23, 24, 25].map((slot) => [slot, bucket(60)])), ...extra },
      },
    },
  });
  const afternoon = Object.fromEntries([26, 27, 28, 29, 30, 31].map((slot) => [slot, bucket(10)]));
  // The best time is 15:30: the afternoon's half hours all show 40, and the pull toward the usual
  // wait grows with the horizon, so the last is the lowest before rounding.
  const posted = (downAtBest = false) =>
    oneRide(
      '2024-05-01 10:00',
      Array.from({ length: 36 }, (_, i) => (i < 18 ? 60 : downAtBest && i === 33 ? null : 10)),
    ).rides[0] ?? { id: 'r', name: 'R', observations: [] };
  const context = (extra: Record<string, ProfileBucket>, at: number) => ({
    profile: profile(extra),
    timeZone: 'UTC',
    at,
    parkRatio: 1,
    hours: null,
  });
  const ten = at('2024-05-01 10:00');

  it.each([
    ['the afternoon: the wait posted then against the rest of the day', afternoon, false, 'compared'],
    ['a half hour after the ride’s last wait of the day', { ...afternoon, 34: bucket(0) }, false, 'afterClose'],
    ['a half hour when the ride was down', afternoon, true, 'unverified'],
  ])('a best time in %s', (_case, buckets, downAtBest, outcome) => {
    const check = bestTimeCheck(context(buckets, ten), posted(downAtBest), 60);
    expect(check?.checks).toBe(1);
    expect(check?.[outcome]).toBe(1);
    // 17 waits of 60 (10:10–12:50) and 18 of 10 (13:00–15:50) after the origin.
    const restMean = (17 * 60 + 18 * 10) / 35;
    if (outcome === 'compared') {
      // 10 posted at the best time.
      expect(check).toMatchObject({ atBest: 10, now: 60, lowest: 10, lastOpenWait: 10, bestNow: 0, afterClose: 0 });
      expect(check?.restMean).toBeCloseTo(restMean, 10);
    }
    if (outcome === 'afterClose') {
      // Advice to come when the ride is closed: counted, as no gain.
      expect(check?.compared).toBe(1);
      expect(check?.atBest).toBeCloseTo(restMean, 10);
    }
  });

  it('takes the wait now when it is as short as the best time’s, as the widget’s "best now"', () => {
    const check = bestTimeCheck(context(afternoon, ten), posted(), 10);
    expect(check).toMatchObject({ compared: 1, bestNow: 1, atBest: 10, now: 10 });
  });

  it('does not count an origin with nothing posted after it', () => {
    expect(bestTimeCheck(context(afternoon, at('2024-05-01 16:00')), posted(), 10)).toBe(undefined);
  });
});

describe('the queue-times sample log (fixtures/queue-times-log, Europa-Park, 18 Dec 2025)', () => {
  it('reads the real log as production stores it: one day record, 29 irregular samples, 40 rides', () => {
    const [day, ...others] = parseDayLog(readLog('europa-park-2025-12-18.jsonl'));
    expect(others).toEqual([]);
    expect(day?.date).toBe('2025-12-18');
    expect(day?.times[0]).toBe(Date.parse('2025-12-18T15:07:23.920Z')); // 16:07:23 in Rust, UTC+1
    const gaps = (day?.times ?? []).slice(1).map((time, i) => Math.round((time - (day?.times[i] ?? 0)) / MINUTE));
    expect([Math.min(...gaps), Math.max(...gaps)]).toEqual([7, 27]);
    expect(day?.rides['5618']?.name).toBe('ARTHUR');
    expect(day?.rides['5618']?.waits.slice(0, 6)).toEqual([25, 25, 25, 25, 25, 15]);
    expect(day?.rides['5618']?.waits.at(-1)).toBeNull(); // closed after 19:10
    const park = parkOfDayLog(day ? [day] : []);
    expect([park.samples.length, park.rides.length]).toEqual([29, 40]);
  });

  it('is what the converter writes from the collector’s CSV', () => {
    expect(toDayLog(readLog('europa-park-2025-12-18.csv'), 'Europe/Berlin')).toBe(
      readLog('europa-park-2025-12-18.jsonl'),
    );
  });

  it('replays: with nothing learned yet every forecast past the half hour is the wait now in 5-minute steps', async () => {
    const park = parkOfDayLog(parseDayLog(readLog('europa-park-2025-12-18.jsonl')));
    const { days: split, tally } = await replay(park, { timeZone: 'Europe/Berlin', trainShare: 0.6, horizons: [60] });
    expect(split.validation).toEqual(['2025-12-18']);
    const sums = tally.get('validation', 'pooled', 'all 60');
    expect(sums?.n).toBeGreaterThan(400);
    expect(sums?.usualUnknown).toBe(sums?.n);
    // Europa-Park posts waits like 1 or 14 minutes; ours differs from them only by the rounding.
    expect(Math.abs((sums?.ours ?? 0) - (sums?.persistence ?? 0))).toBeLessThanOrEqual(2.5 * (sums?.n ?? 0));
  });

  it.each([
    ['not JSON', '{"version":1', /line 2 is not a day record/],
    [
      'waits out of step with times',
      '{"version":1,"date":"2025-12-18","times":[1],"rides":{"1":{"name":"A","waits":[]}}}',
      /line 2/,
    ],
  ])('refuses a line that is %s, naming it', (_case, line, message) => {
    const good = '{"version":1,"date":"2025-12-18","times":[],"rides":{}}';
    expect(() => parseDayLog(`${good}\n${line}\n`)).toThrow(message);
  });

  it('converts as the service records: closed is null, names may hold commas, one sample per 5 minutes', () => {
    const csv = [
      'timestamp,ride_id,ride_name,is_open,wait_time',
      '2025-08-20T16:30:00+02:00,4,"Autopia, presented by Avis",True,45',
      '2025-08-20T16:30:00+02:00,18,Dumbo the Flying Elephant,False,0',
      '2025-08-20 16:33:00,4,"Autopia, presented by Avis",True,50',
      '2025-08-20 16:41:00,4,"Autopia, presented by Avis",True,40.4',
    ].join('\n');
    const [day] = parseDayLog(toDayLog(csv, 'Europe/Paris'));
    expect(day?.times).toEqual([Date.parse('2025-08-20T14:30:00Z'), Date.parse('2025-08-20T14:41:00Z')]);
    expect(day?.rides).toEqual({
      '4': { name: 'Autopia, presented by Avis', waits: [45, 40] },
      '18': { name: 'Dumbo the Flying Elephant', waits: [null, null] },
    });
  });
});

describe('fitLad', () => {
  it('finds the weights of an exact blend', () => {
    const rows = Array.from({ length: 200 }, (_, i) => {
      const [chained, usual] = [Math.sin(i) * 30, Math.cos(i * 1.7) * 40];
      return [0.8 * chained + 0.3 * usual, chained, usual] as const;
    });
    expect(fitLad(rows)).toEqual([0.8, 0.3]);
  });
});

describe('replay on the real slices (TouringPlans.com, 17–24 Feb 2019, one park)', () => {
  it('learns from the first days and beats persistence an hour ahead on the later ones', async () => {
    const rides = (['AK85', 'AK86'] as const).map((id) => ({ id, name: id, samples: loadSlice(id) }));
    const park = { rides: rides.map((ride) => ({ ...ride, observations: ride.samples })), samples: gridSamples(rides) };
    const { days: split, tally } = await replay(park, { timeZone: EASTERN, trainShare: 0.5, horizons: [60] });
    expect(split.validation).toEqual(['2019-02-21', '2019-02-22', '2019-02-23', '2019-02-24']);
    const sums = tally.get('validation', 'pooled', 'all 60');
    expect(sums?.n).toBeGreaterThan(500);
    expect(sums?.ours ?? 0).toBeLessThan(sums?.persistence ?? 0);
    expect(park.samples[0]?.at).toBeGreaterThanOrEqual(eastern('2019-02-17 08:17'));
    // A week replayed takes about 2 s alone, past the default 5 s on a machine shared by many runs.
  }, 30_000);
});
