import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { waitHistoryBody } from '../../../src/wait-times/day/history.ts';
import { type WaitHistory, WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay } from '../../../src/wait-times/day/park-day.ts';
import { forecastOf } from '../../../src/wait-times/forecast/forecast.ts';
import {
  bestTimeOf,
  chainedWait,
  expectedWait,
  halfHoursBetween,
  parkRatioOf,
  rideOutlookOf,
  toStep,
} from '../../../src/wait-times/forecast/outlook.ts';
import { memoryHistory, recordSample } from '../../../src/wait-times/forecast/park-history.ts';
import { emptyProfile } from '../../../src/wait-times/forecast/wait-profile.ts';
import type { WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import { dayBoundsOf, fromWallClock, minuteOfDay } from '../../../src/wait-times/local-time.ts';
import type { HistorySample } from '../../../src/wait-times/park-snapshot-schemas.ts';
import { type OpenApi, OpenApiValidator, pointer } from '../../support/openapi-validator.ts';
import { halfHour } from '../../support/wait-profile.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const validator = new OpenApiValidator((await buildOpenApiDocument('https://site.example.test')) as unknown as OpenApi);
const LA = { slug: 'alphaland', timezone: 'America/Los_Angeles' } as const;
const PARIS = { slug: 'alphaland-paris', timezone: 'Europe/Paris' } as const;
const NAMES = { 1: 'Peak ride', 2: 'Flat ride' };

/** Unix ms of a wall-clock reading (`2026-07-04 15:00`) in a zone. */
const wall = (reading: string, timeZone: string) =>
  fromWallClock(Date.parse(`${reading.replace(' ', 'T')}:00Z`), timeZone);
const clock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);

/**
 * A usual day at the local minute: ride 1 open 09:00–21:00, rising from 20 to a 60-minute peak at
 * 14:00 and falling to 15 by closing; ride 2 open 09:00–18:00 at 30. Null while closed.
 */
function usualWaits(minute: number, crowd = 1): Record<string, number | null> {
  const hour = minute / 60;
  const peak = hour < 14 ? 20 + ((hour - 9) / 5) * 40 : 60 - ((hour - 14) / 7) * 45;
  return {
    1: hour >= 9 && hour < 21 ? Math.round((peak * crowd) / 5) * 5 : null,
    2: hour >= 9 && hour < 18 ? Math.round((30 * crowd) / 5) * 5 : null,
  };
}

/**
 * A profile learned by the service's own `recordSample` from `days` usual days before `date`'s
 * midnight; on the days `lateUntil` names, ride 1 stays open at 15 minutes until that hour.
 */
async function learnedBefore(
  date: string,
  timeZone: string,
  days: number,
  lateUntil: Record<number, number> = {},
): Promise<WaitProfile | null> {
  const history = memoryHistory();
  const end = dayBoundsOf(date, timeZone).startsAt;
  let profile: WaitProfile | null = null;
  for (let at = end - days * DAY; at < end; at += 5 * MINUTE) {
    const minute = minuteOfDay(at, timeZone);
    const late = lateUntil[Math.floor((at - (end - days * DAY)) / DAY)];
    const waits = usualWaits(minute);
    if (late !== undefined && minute >= 21 * 60 && minute < late * 60) waits[1] = 15;
    profile = (await recordSample(history, { at, waits }, timeZone)).profile;
  }
  return profile;
}

/** The day so far at `crowd` times the usual waits, every 5 minutes from 09:00 until `until`, with `change` applied. */
function today(
  date: string,
  timeZone: string,
  until: number,
  crowd: number,
  change: (sample: HistorySample) => HistorySample = (sample) => sample,
) {
  const samples: HistorySample[] = [];
  for (let at = wall(`${date} 09:00`, timeZone); at <= until; at += 5 * MINUTE) {
    samples.push(change({ at, waits: usualWaits(minuteOfDay(at, timeZone), crowd) }));
  }
  return addSamples(emptyDay(date), samples, NAMES);
}

const byName = (body: WaitHistory, name: string) => {
  const ride = body.rides.find((entry) => entry.name === name);
  if (!ride) throw new Error(`no ${name}`);
  return ride;
};
const openApiErrors = (body: WaitHistory) => validator.errorsAt(pointer('components', 'schemas', 'WaitHistory'), body);

describe('halfHoursBetween: the outlook’s steps are the park’s wall-clock half hours', () => {
  it.each([
    ['a summer day in Anaheim', LA.timezone, '2026-07-04', 48],
    ['the day US clocks go forward (no 02:00–02:59)', 'America/New_York', '2026-03-08', 46],
    ['the day US clocks go back (01:00–01:59 twice)', 'America/New_York', '2026-11-01', 50],
    ['the day Paris clocks go forward', PARIS.timezone, '2026-03-29', 46],
    ['a day in India, half an hour off UTC', 'Asia/Kolkata', '2026-07-04', 48],
    ['a day in Nepal, a quarter hour off', 'Asia/Kathmandu', '2026-07-04', 48],
  ])('counts %s: every :00 and :30 of the local day once', (_day, timeZone, date, count) => {
    const { startsAt, endsAt } = dayBoundsOf(date, timeZone);
    const times = halfHoursBetween(startsAt - 1, endsAt, timeZone);
    expect(times).toHaveLength(count);
    expect(times.every((at) => minuteOfDay(at, timeZone) % 30 === 0)).toBe(true);
    expect(times[0]).toBe(startsAt);
  });
});

describe('the outlook on a simulated day in Anaheim that crosses midnight UTC', () => {
  const date = '2026-07-04';
  const now = wall(`${date} 15:02`, LA.timezone); // 22:02 UTC
  let profile: WaitProfile | null;
  let body: WaitHistory;

  beforeAll(async () => {
    profile = await learnedBefore(date, LA.timezone, 3);
    body = waitHistoryBody(LA, today(date, LA.timezone, now, 1.2), { profile, hours: null }, now);
  });

  it('steps every half hour from after the newest sample to local midnight, past 00:00 UTC', () => {
    expect(body.outlookTimes.map((at) => clock(at, LA.timezone))).toEqual(
      Array.from({ length: 17 }, (_, index) =>
        clock(wall(`${date} 15:30`, LA.timezone) + index * 30 * MINUTE, LA.timezone),
      ),
    );
    expect(body.outlookTimes.at(-1)).toBe(body.dayEndsAt - 30 * MINUTE);
    expect(new Date(body.outlookTimes.at(-1) ?? 0).getUTCDate()).toBe(5);
  });

  it('expects the evening to fall as usual, a fifth busier, and nothing once the ride usually closes', () => {
    const peak = byName(body, 'Peak ride');
    expect(peak.outlook).toHaveLength(body.outlookTimes.length);
    const open = peak.outlook.slice(0, 10); // 15:30 … 20:00
    expect(open.every((wait) => wait !== null && wait % 5 === 0)).toBe(true);
    expect(open.every((wait, index) => index === 0 || (wait ?? 0) <= (open[index - 1] ?? 0))).toBe(true);
    expect(open[0]).toBeGreaterThan(open.at(-1) ?? 0);
    // 20:30 on: the ride usually closes at 21:00, and its last half hour teaches no change (that
    // needs it open 30 minutes later), so it never counts as usual.
    expect(peak.outlook.slice(10)).toEqual(Array(7).fill(null));
  });

  it('names the lowest expected wait still ahead as the best time, well below the wait now', () => {
    const peak = byName(body, 'Peak ride');
    const lowest = Math.min(...peak.outlook.filter((wait) => wait !== null));
    expect(peak.bestTime?.wait).toBe(lowest);
    // One of the half hours shown with that wait (the lowest before rounding), late in the evening's fall.
    const shownLowest = body.outlookTimes.filter((_, index) => peak.outlook[index] === lowest);
    expect(shownLowest).toContain(peak.bestTime?.at);
    expect(clock(peak.bestTime?.at ?? 0, LA.timezone) >= '19:00').toBe(true);
    expect(lowest).toBeLessThan((peak.waits.at(-1) ?? 0) * 0.75);
  });

  it('is valid against the zod schema and the OpenAPI document', () => {
    expect(WaitHistorySchema.parse(body)).toEqual(body);
    expect(openApiErrors(body)).toEqual([]);
  });
});

describe('the outlook on the day Paris clocks go forward', () => {
  it('follows the wall clock: the same outlook at 12:00 as on an ordinary day with the same profile and waits', async () => {
    const profile = await learnedBefore('2026-03-29', PARIS.timezone, 3);
    const outlookAt = (date: string) => {
      const now = wall(`${date} 12:00`, PARIS.timezone);
      return waitHistoryBody(PARIS, today(date, PARIS.timezone, now, 1), { profile, hours: null }, now);
    };
    const [ordinary, shifted] = [outlookAt('2026-03-28'), outlookAt('2026-03-29')];
    expect(shifted.dayEndsAt - shifted.dayStartsAt).toBe(23 * 60 * MINUTE);
    expect(shifted.outlookTimes.map((at) => clock(at, PARIS.timezone))).toEqual(
      ordinary.outlookTimes.map((at) => clock(at, PARIS.timezone)),
    );
    expect(byName(shifted, 'Peak ride').outlook).toEqual(byName(ordinary, 'Peak ride').outlook);
    expect(byName(shifted, 'Peak ride').outlook.some((wait) => wait !== null)).toBe(true);
    expect(openApiErrors(shifted)).toEqual([]);
  });
});

describe('a ride closing early, and a park with no history', () => {
  const date = '2026-07-04';
  const now = wall(`${date} 16:00`, LA.timezone);

  it('gives a ride closed now no outlook and no best time, and the other rides theirs', async () => {
    const profile = await learnedBefore(date, LA.timezone, 3);
    const closedFrom = wall(`${date} 15:30`, LA.timezone); // usually open until 21:00
    const day = today(date, LA.timezone, now, 1, (sample) =>
      sample.at >= closedFrom ? { ...sample, waits: { ...sample.waits, 1: null } } : sample,
    );
    const body = waitHistoryBody(LA, day, { profile, hours: null }, now);
    expect(byName(body, 'Peak ride').outlook.every((wait) => wait === null)).toBe(true);
    expect(byName(body, 'Peak ride').bestTime).toBeNull();
    // The flat ride closes at 18:00 as usual: an outlook until its last learned half hour.
    const flat = byName(body, 'Flat ride');
    expect(flat.outlook.slice(0, 2)).toEqual([30, 30]); // 16:30, 17:00
    expect(flat.outlook.slice(2).every((wait) => wait === null)).toBe(true); // from 17:30
    expect(flat.bestTime).toEqual({ at: body.outlookTimes[0], wait: 30 });
    expect(openApiErrors(body)).toEqual([]);
  });

  it.each([
    ['one late day in four', { 0: 23 }, false],
    ['every day late', { 0: 23, 1: 23, 2: 23, 3: 23 }, true],
  ] as const)(
    'counts the late hours as usual only when the ride is usually open then (%s)',
    async (_case, late, usual) => {
      const profile = await learnedBefore(date, LA.timezone, 4, late);
      const body = waitHistoryBody(LA, today(date, LA.timezone, now, 1), { profile, hours: null }, now);
      const peak = byName(body, 'Peak ride');
      expect(peak.usual[43] !== null).toBe(usual); // 21:30–21:59
      const at2130 = body.outlookTimes.findIndex((at) => clock(at, LA.timezone) === '21:30');
      expect(peak.outlook[at2130] !== null).toBe(usual);
    },
  );

  it('answers a park with no history with every outlook step null and no best time', () => {
    const body = waitHistoryBody(LA, today(date, LA.timezone, now, 1), { profile: null, hours: null }, now);
    expect(body.outlookTimes.length).toBeGreaterThan(0);
    for (const ride of body.rides) {
      expect(ride.outlook).toEqual(Array(body.outlookTimes.length).fill(null));
      expect(ride.bestTime).toBeNull();
    }
    expect(openApiErrors(body)).toEqual([]);
  });

  it('has no steps before the first sample of the day', () => {
    const body = waitHistoryBody(LA, null, { profile: null, hours: null }, now);
    expect(body.outlookTimes).toEqual([]);
    expect(openApiErrors(body)).toEqual([]);
  });
});

describe('one model for the forecast and the outlook', () => {
  it('gives the 30-minute forecast from the same expected wait, rounded to 5', async () => {
    const profile = await learnedBefore('2026-07-04', LA.timezone, 3);
    for (const [reading, wait] of [
      ['2026-07-04 09:30', 20],
      ['2026-07-04 13:45', 80],
      ['2026-07-04 19:10', 10],
    ] as const) {
      const at = wall(reading, LA.timezone);
      const context = { profile, timeZone: LA.timezone, at };
      const expected = expectedWait({ ...context, parkRatio: 1.4 }, { id: '1', wait }, at + 30 * MINUTE);
      expect(forecastOf(context, { id: 1, wait, open: true }), reading).toBe(toStep(expected));
    }
  });

  it.each([
    [1.5, 30],
    [12, 30 + 1.3 * 10],
  ])(
    'at 30 minutes ignores a learned change within 2 minutes and counts a larger one 1.3 times (%s)',
    (change, wait) => {
      const bucket = halfHour(30, { low: [change, 50], near: [change, 50], high: [change, 50] });
      const profile: WaitProfile = {
        ...emptyProfile(),
        rides: { 1: { seen: 0, buckets: { 18: bucket, 19: bucket } } },
      };
      const at = Date.UTC(2026, 6, 4, 9, 15);
      const context = { profile, timeZone: 'UTC', at, parkRatio: 1 };
      expect(chainedWait(context, { id: '1', wait: 30 }, at + 30 * MINUTE)).toBeCloseTo(30 + change);
      expect(expectedWait(context, { id: '1', wait: 30 }, at + 30 * MINUTE)).toBeCloseTo(wait);
    },
  );

  it.each([
    ['the earliest of equal lows', [40, 25, 30, 25], { at: 1, wait: 25 }],
    ['a low after steps the model cannot fill', [null, 35, null, 20], { at: 3, wait: 20 }],
    ['nothing when no step is expected', [null, null], null],
  ] as const)('picks %s as the best time', (_case, outlook, best) => {
    const times = outlook.map((_, step) => step);
    expect(bestTimeOf(times, outlook)).toEqual(best);
  });

  it('picks the best time among half hours shown alike by the lowest expectation before rounding', () => {
    // No change learned; usual 10 from 13:00, so the pull toward it grows with the horizon.
    const bucket = (level: number) => halfHour(level, { near: [0, 10] });
    const buckets = Object.fromEntries([...Array(12).keys()].map((i) => [20 + i, bucket(i < 6 ? 60 : 10)]));
    const profile: WaitProfile = { ...emptyProfile(), rides: { 1: { seen: 0, buckets } } };
    const from = Date.UTC(2024, 4, 1, 10);
    const times = halfHoursBetween(from, Date.UTC(2024, 4, 1, 16), 'UTC');
    const context = { profile, timeZone: 'UTC', at: from, parkRatio: 1, hours: null };
    const { outlook, bestTime } = rideOutlookOf(context, { id: '1', wait: 60 }, times);
    expect(outlook.slice(5)).toEqual([45, 45, 45, 45, 45, 45]);
    expect(bestTime).toEqual({ at: Date.UTC(2024, 4, 1, 15, 30), wait: 45 });
  });

  it('gives a closed ride no outlook even where its usual day is known', async () => {
    const profile = await learnedBefore('2026-07-04', LA.timezone, 3);
    const from = wall('2026-07-04 12:00', LA.timezone);
    const times = halfHoursBetween(from, from + 4 * 60 * MINUTE, LA.timezone);
    const context = { profile, timeZone: LA.timezone, at: from, parkRatio: 1, hours: null };
    expect(rideOutlookOf(context, { id: '1', wait: null }, times)).toEqual({
      outlook: Array(times.length).fill(null),
      bestTime: null,
    });
  });
});

describe('parkRatioOf: how busy the park is against its usual day', () => {
  let profile: WaitProfile | null;
  const at = wall('2026-07-04 14:00', LA.timezone); // usual: 60 and 30

  beforeAll(async () => {
    profile = await learnedBefore('2026-07-04', LA.timezone, 3);
  });

  it.each([
    ['the median over open rides (two: their mean)', [90, 45], 1.5],
    ['closed rides left out', [90, null], 1.5],
    ['bounded above at 2', [300, 150], 2],
    ['bounded below at 0.5', [5, 5], 0.5],
    ['1 when no ride is open', [null, null], 1],
  ] as const)('is %s', (_case, [peak, flat], ratio) => {
    const rides = [
      { id: '1', wait: peak },
      { id: '2', wait: flat },
    ];
    expect(parkRatioOf({ profile, timeZone: LA.timezone, at }, rides)).toBeCloseTo(ratio, 1);
  });

  it('is 1 with nothing learned', () => {
    expect(parkRatioOf({ profile: null, timeZone: LA.timezone, at }, [{ id: '1', wait: 50 }])).toBe(1);
  });
});
