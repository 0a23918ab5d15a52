import { describe, expect, it } from 'vitest';
import type { RideDay, WaitHistory } from '../../../src/wait-times/day/history-schemas.ts';
import type { Ride, WaitTimes } from '../../../src/wait-times/wait-times-schemas.ts';
import { chartPaths, type DayView, dayView, mean, parkSeries } from '../../../src/widget/chart-math.ts';

const MINUTE = 60_000;
const MIDNIGHT = Date.UTC(2026, 6, 4);
/** Unix ms of a wall-clock time of the day (UTC). */
const at = (hours: number, minutes = 0) => MIDNIGHT + (hours * 60 + minutes) * MINUTE;
/** The 48 half hours of a usual day, with the given ones known. */
const usualDay = (known: Record<number, number> = {}) => Array.from({ length: 48 }, (_, i) => known[i] ?? null);

function history(times: number[], rides: RideDay[]): WaitHistory {
  return {
    park: 'epcot',
    date: '2026-07-04',
    timeZone: 'UTC',
    dayStartsAt: MIDNIGHT,
    dayEndsAt: at(24),
    updatedAt: times.at(-1) ?? null,
    source: 'queue-times.com',
    times,
    outlookTimes: [],
    crowd: { level: null, ratio: null, comparisons: 0, rides: 0, since: null },
    rides,
  };
}

const live = (updatedAt: number, rides: Partial<Ride>[]): WaitTimes => ({
  updatedAt,
  source: 'queue-times.com',
  rides: rides.map((ride) => ({ name: 'Ride', wait: 0, open: true, trend: 'flat', forecast: null, ...ride })),
});

// Samples at 10:00, 10:30 and 11:00; the data is from 11:00. Soarin' was closed at 10:30 and has a
// usual wait for 10:00 and 10:30; Test Track has none.
const DAY = history(
  [at(10), at(10, 30), at(11)],
  [
    { name: 'Soarin’', waits: [10, null, 40], usual: usualDay({ 20: 20, 21: 30 }), outlook: [], bestTime: null },
    { name: 'Test Track', waits: [20, 30, 50], usual: usualDay(), outlook: [], bestTime: null },
  ],
);
const LIVE = live(at(11), [
  { name: 'Soarin’', wait: 40, forecast: 45 },
  { name: 'Test Track', wait: 50, forecast: 55 },
]);

function view(day = DAY, data = LIVE): DayView {
  const shared = dayView(day, data);
  if (!shared) throw new Error('no view');
  return shared;
}

describe('dayView: what the charts of a day share', () => {
  it('spans the first sample or usual half hour to half an hour after now, on a scale of whole half hours', () => {
    const shared = view();
    expect(shared.start).toBe(at(10));
    expect(shared.end).toBe(at(11, 30));
    expect(shared.max).toBe(60); // the longest wait or forecast (55), rounded up to 30
    expect(shared.nowIndex).toBe(22); // 11:00–11:29
    expect(shared.slotAt(20)).toBe(at(10));
    expect(shared.byName.get('Test Track')?.waits).toEqual([20, 30, 50]);
  });

  it('reaches to the end of the last usual half hour when that is later, and the scale is at least 30', () => {
    const day = history(
      [at(10)],
      [{ name: 'Soarin’', waits: [5], usual: usualDay({ 18: 10, 30: 15 }), outlook: [], bestTime: null }],
    );
    const shared = view(day, live(at(10), [{ name: 'Soarin’', wait: 5 }]));
    expect(shared.start).toBe(at(9));
    expect(shared.end).toBe(at(15, 30));
    expect(shared.max).toBe(30);
  });

  it('is null without data, or without a sample or usual wait to draw', () => {
    expect(dayView(null, LIVE)).toBeNull();
    expect(dayView(DAY, null)).toBeNull();
    expect(
      dayView(history([], [{ name: 'Soarin’', waits: [], usual: usualDay(), outlook: [], bestTime: null }]), LIVE),
    ).toBeNull();
    expect(
      dayView(
        history([], [{ name: 'Soarin’', waits: [], usual: usualDay({ 20: 5 }), outlook: [], bestTime: null }]),
        LIVE,
      ),
    ).not.toBeNull();
  });
});

describe('chartPaths: a series against its usual day, as SVG paths', () => {
  // 90 minutes over 90 units and a scale of 60 over 60: x is minutes since 10:00, y is 60 - wait.
  const size = { width: 90, height: 60 };

  it('draws the usual waits as a band, today as a line, now as a dot and the forecast as a step to a dot', () => {
    const [soarin, testTrack] = DAY.rides;
    expect(chartPaths(view(), { ...size, waits: testTrack?.waits ?? [], usual: [], nowWait: 50, soon: 55 })).toEqual({
      usual: '',
      nowline: 'M60 0V60',
      today: 'M0 40L30 30L60 10',
      forecast: 'M60 10L90 5',
      soon: 'M90 5h0',
      now: 'M60 10h0',
    });
    const paths = chartPaths(view(), { ...size, waits: [], usual: soarin?.usual ?? [], nowWait: null, soon: null });
    expect(paths.usual).toBe('M0 60V40H30V60ZM30 60V30H60V60Z');
  });

  it('breaks the line where the ride was closed, and a lone sample is a dot', () => {
    const paths = chartPaths(view(), { ...size, waits: [10, null, 40], usual: [], nowWait: 40, soon: null });
    expect(paths.today).toBe('M0 50h0M60 20h0');
    expect(paths.forecast).toBe('');
    expect(paths.soon).toBe('');
  });

  it('draws nothing but the line at now for an empty series, and keeps waits above the scale at the top', () => {
    expect(chartPaths(view(), { ...size, waits: [], usual: [], nowWait: null, soon: null })).toEqual({
      usual: '',
      nowline: 'M60 0V60',
      today: '',
      forecast: '',
      soon: '',
      now: '',
    });
    expect(chartPaths(view(), { ...size, waits: [], usual: [], nowWait: 500, soon: null }).now).toBe('M60 0h0');
  });
});

describe('parkSeries: the park’s average day', () => {
  it('averages the known waits of every ride at each time and half hour, and the open rides now', () => {
    const series = parkSeries(view());
    expect(series.waits).toEqual([15, 30, 45]);
    expect(series.usual[20]).toBe(20);
    expect(series.usual[19]).toBeNull();
    expect(series.nowWait).toBe(45);
    expect(series.usualNow).toBeNull(); // no ride has a usual wait for 11:00
  });

  it('has no wait now when every ride is closed', () => {
    const closed = live(at(11), [{ name: 'Soarin’', open: false }]);
    expect(parkSeries(view(DAY, closed)).nowWait).toBeNull();
    expect(mean([null, undefined])).toBeNull();
  });
});
