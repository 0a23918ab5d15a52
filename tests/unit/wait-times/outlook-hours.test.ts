import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/discovery/openapi-document.ts';
import { waitHistoryBody } from '../../../src/wait-times/day/history.ts';
import { WaitHistorySchema } from '../../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay } from '../../../src/wait-times/day/park-day.ts';
import { halfHoursBetween, outlookTimesOf, rideOutlookOf, toStep } from '../../../src/wait-times/forecast/outlook.ts';
import { emptyProfile } from '../../../src/wait-times/forecast/wait-profile.ts';
import type { WaitProfile } from '../../../src/wait-times/forecast/wait-profile-schemas.ts';
import type { DayHours } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { dayBoundsOf } from '../../../src/wait-times/local-time.ts';
import { type OpenApi, OpenApiValidator, pointer } from '../../support/openapi-validator.ts';
import { halfHour } from '../../support/wait-profile.ts';

const MINUTE = 60_000;
const DATE = '2026-07-04';
const { endsAt: DAY_ENDS_AT } = dayBoundsOf(DATE, 'UTC');
/** Unix ms of a UTC wall-clock time on DATE (`24:30` is the next morning). */
const at = (clock: string) => {
  const [hours = 0, minutes = 0] = clock.split(':').map(Number);
  return Date.parse(`${DATE}T00:00:00Z`) + (hours * 60 + minutes) * MINUTE;
};
const clock = (time: number) => new Date(time).toISOString().slice(11, 16);
/** The clocks of the half hours from `first` to `last`, both included. */
const steps = (first: string, last: string) => halfHoursBetween(at(first) - 1, at(last) + 1, 'UTC').map(clock);

/**
 * A synthetic profile of ride "1" in UTC, learned every half hour of the day, no change learned:
 * usual waits in a V, 100 at midnight down to 10 at 15:00 and up again.
 */
const profile: WaitProfile = {
  ...emptyProfile(),
  rides: {
    1: {
      seen: 0,
      buckets: Object.fromEntries(
        Array.from({ length: 48 }, (_, slot) => [slot, halfHour(10 + 3 * Math.abs(slot - 30), { near: [0, 10] })]),
      ),
    },
  },
};
const usualAt = (time: number) => 10 + 3 * Math.abs(Math.floor((time - at('00:00')) / (30 * MINUTE)) - 30);

const DAY_HOURS: DayHours = { opensAt: at('09:00'), closesAt: at('21:00') };
const LATE_HOURS: DayHours = { opensAt: at('09:00'), closesAt: at('25:00') };

describe('the outlook respects the day: from now (or opening) to closing, and no later', () => {
  it.each([
    ['before opening, from the opening on, at the usual waits', '07:40', null, DAY_HOURS, steps('09:00', '20:30')],
    ['during the day, after now', '14:10', 40, DAY_HOURS, steps('14:30', '20:30')],
    ['in the last hour, the half hour left', '20:10', 25, DAY_HOURS, ['20:30']],
    ['in the last half hour, no half hour left and no best time', '20:40', 25, DAY_HOURS, []],
    ['after closing, nothing: closed for the day', '21:20', null, DAY_HOURS, []],
    ['with a closing after midnight, past the end of the local day', '22:10', 60, LATE_HOURS, steps('22:30', '24:30')],
    ['with the hours unknown, to the end of the local day as before', '14:10', 40, null, steps('14:30', '23:30')],
  ] as const)('%s', (_case, now, wait, hours, expected) => {
    const context = { profile, timeZone: 'UTC', at: at(now), parkRatio: 1, hours };
    const times = outlookTimesOf(context, DAY_ENDS_AT);
    expect(times.map(clock)).toEqual(expected);
    const { outlook, bestTime } = rideOutlookOf(context, { id: '1', wait }, times);
    expect(outlook).toHaveLength(times.length);
    expect(outlook.every((minutes) => minutes !== null)).toBe(true);
    if (wait === null) expect(outlook).toEqual(times.map((time) => toStep(usualAt(time))));
    if (times.length === 0) expect(bestTime).toBeNull();
    else {
      expect(times).toContain(bestTime?.at);
      expect(bestTime?.at ?? 0).toBeLessThan(hours?.closesAt ?? DAY_ENDS_AT);
    }
  });

  it('keeps a ride closed during open hours without an outlook (down: it may not be back today)', () => {
    const context = { profile, timeZone: 'UTC', at: at('14:10'), parkRatio: 1, hours: DAY_HOURS };
    const times = outlookTimesOf(context, DAY_ENDS_AT);
    expect(rideOutlookOf(context, { id: '1', wait: null }, times)).toEqual({
      outlook: Array(times.length).fill(null),
      bestTime: null,
    });
  });

  it('cuts hours reaching past a day from now (a bad upstream) to a day', () => {
    const context = {
      profile,
      timeZone: 'UTC',
      at: at('14:10'),
      parkRatio: 1,
      hours: { ...DAY_HOURS, closesAt: at('96:00') },
    };
    expect(outlookTimesOf(context, DAY_ENDS_AT)).toHaveLength(48);
  });
});

const DOCUMENT = await buildOpenApiDocument('https://site.example.test');

describe('GET /api/wait-times/history after closing', () => {
  const validator = new OpenApiValidator(DOCUMENT as unknown as OpenApi);
  const park = { slug: 'alphaland', timezone: 'UTC' } as const;
  const samples = [at('20:50'), at('21:10')].map((time, index) => ({ at: time, waits: { 1: index ? null : 20 } }));
  const day = addSamples(emptyDay(DATE), samples, { 1: 'Peak ride' });

  it('says every ride is closed for the day in the same shape: no half hours left, no best time', () => {
    const body = waitHistoryBody(park, day, { profile, hours: { ...DAY_HOURS, extras: [] } }, at('21:12'));
    expect(body.updatedAt).toBe(at('21:10'));
    expect(body.outlookTimes).toEqual([]);
    expect(body.rides.map(({ outlook, bestTime }) => ({ outlook, bestTime }))).toEqual([
      { outlook: [], bestTime: null },
    ]);
    expect(WaitHistorySchema.parse(body)).toEqual(body);
    expect(validator.errorsAt(pointer('components', 'schemas', 'WaitHistory'), body)).toEqual([]);
  });
});
