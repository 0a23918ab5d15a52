import { describe, expect, it } from 'vitest';
import type { RideDay, WaitHistory } from '../../../src/wait-times/day/history-schemas.ts';
import type { Ride, WaitTimes } from '../../../src/wait-times/wait-times-schemas.ts';
import {
  bestAhead,
  chartPaths,
  closingOf,
  type DayView,
  dayView,
  mean,
  parkSeries,
} from '../../../src/widget/chart-math.ts';

const MINUTE = 60_000;
const MIDNIGHT = Date.UTC(2026, 6, 4);
/** Unix ms of a wall-clock time of the day (UTC). */
const at = (hours: number, minutes = 0) => MIDNIGHT + (hours * 60 + minutes) * MINUTE;
/** The 48 half hours of a usual day, with the given ones known. */
const usualDay = (known: Record<number, number> = {}) => Array.from({ length: 48 }, (_, i) => known[i] ?? null);

/** Rides as the charts read them: no outage, none down (the down line has its own tests). */
type ChartRide = Omit<RideDay, 'down' | 'outages'>;

function history(times: number[], chartRides: ChartRide[], outlookTimes: number[] = []): WaitHistory {
  const rides = chartRides.map((ride) => ({ ...ride, down: null, outages: [] }));
  return {
    park: 'epcot',
    date: '2026-07-04',
    timeZone: 'UTC',
    dayStartsAt: MIDNIGHT,
    dayEndsAt: at(24),
    hours: null,
    updatedAt: times.at(-1) ?? null,
    source: 'queue-times.com',
    times,
    outlookTimes,
    crowd: { level: null, ratio: null, comparisons: 0, rides: 0, since: null },
    rides,
  };
}

const live = (updatedAt: number, rides: Partial<Ride>[]): WaitTimes => ({
  updatedAt,
  source: 'queue-times.com',
  rides: rides.map((ride, index) => ({
    id: index + 1,
    name: 'Ride',
    wait: 0,
    open: true,
    trend: 'flat',
    forecast: null,
    ...ride,
  })),
});

// Samples at 10:00, 10:30 and 11:00; the data is from 11:00. Soarin' was closed at 10:30 and has a
// usual wait for 10:00 and 10:30; Test Track has none. The outlook has steps at 11:30, 12:00 and
// 12:30: Soarin' is expected to be shortest at 12:00 and has no expected wait at 12:30.
const DAY = history(
  [at(10), at(10, 30), at(11)],
  [
    {
      name: 'Soarin’',
      waits: [10, null, 40],
      usual: usualDay({ 20: 20, 21: 30 }),
      outlook: [45, 35, null],
      bestTime: { at: at(12), wait: 35 },
    },
    {
      name: 'Test Track',
      waits: [20, 30, 50],
      usual: usualDay(),
      outlook: [55, 50, 45],
      bestTime: { at: at(12, 30), wait: 45 },
    },
  ],
  [at(11, 30), at(12), at(12, 30)],
);
/** The same day without an outlook (as before the first sample, or with nothing learned). */
const NO_OUTLOOK = { ...DAY, outlookTimes: [] };
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
  it('spans the first sample or usual half hour to the end of the outlook, on a scale of whole half hours', () => {
    const shared = view();
    expect(shared.start).toBe(at(10));
    expect(shared.end).toBe(at(12, 30));
    expect(shared.max).toBe(60); // the longest wait, forecast or expected wait (55), rounded up to 30
    expect(shared.nowIndex).toBe(22); // 11:00–11:29
    expect(shared.slotAt(20)).toBe(at(10));
    expect(shared.byName.get('Test Track')?.waits).toEqual([20, 30, 50]);
  });

  it.each([
    ['the last step with an expected wait', DAY, at(12, 30)],
    [
      'the last step where any ride has one, not the empty steps after it',
      { ...DAY, rides: DAY.rides.map((ride) => ({ ...ride, outlook: [...ride.outlook.slice(0, 2), null] })) },
      at(12),
    ],
    ['half an hour after now without an outlook', NO_OUTLOOK, at(11, 30)],
  ])('ends at %s', (_, day, end) => {
    expect(view(day).end).toBe(end);
  });

  it('scales to the longest expected wait too', () => {
    const busy = { ...DAY, rides: DAY.rides.map((ride) => ({ ...ride, outlook: [95, null, null] })) };
    expect(view(busy).max).toBe(120);
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
  // 150 minutes (10:00 to 12:30) over 150 units and a scale of 60 over 60: x is minutes since 10:00,
  // y is 60 - wait. Without an outlook or a best time unless a test gives them.
  const size = { width: 150, height: 60, outlook: [], best: null };

  it('draws the usual waits as a band, today as a line, now as a dot and the forecast as a step to a dot', () => {
    const [soarin, testTrack] = DAY.rides;
    expect(chartPaths(view(), { ...size, waits: testTrack?.waits ?? [], usual: [], nowWait: 50, soon: 55 })).toEqual({
      usual: '',
      nowline: 'M60 0V60',
      today: 'M0 40L30 30L60 10',
      forecast: 'M60 10L90 5',
      soon: 'M90 5h0',
      now: 'M60 10h0',
      ring: '',
      hole: '',
      closing: '',
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
      ring: '',
      hole: '',
      closing: '',
    });
    expect(chartPaths(view(), { ...size, waits: [], usual: [], nowWait: 500, soon: null }).now).toBe('M60 0h0');
  });
});

describe('chartPaths: the outlook to the end of the day and the best time', () => {
  const series = { width: 150, height: 60, waits: [], usual: [], nowWait: 50, soon: 55, best: null };

  // x: minutes since 10:00 (now is 11:00, the steps 11:30, 12:00, 12:30); y: 60 - wait.
  it.each([
    {
      does: 'continues from the dot at now through every expected wait',
      outlook: [55, 50, 45],
      nowWait: 50,
      forecast: 'M60 10L90 5L120 10L150 15',
      soon: '',
    },
    {
      does: 'is broken where no wait is expected, and a lone expected wait is a dot',
      outlook: [55, null, 45],
      nowWait: 50,
      forecast: 'M60 10L90 5M150 15h0',
      soon: '',
    },
    {
      does: 'gives way to the forecast step when no wait is expected at all',
      outlook: [null, null, null],
      nowWait: 50,
      forecast: 'M60 10L90 5',
      soon: 'M90 5h0',
    },
    { does: 'is not drawn while the ride is closed now', outlook: [55, 50, 45], nowWait: null, forecast: '', soon: '' },
  ])('the dashed line $does', ({ outlook, nowWait, forecast, soon }) => {
    const paths = chartPaths(view(), { ...series, outlook, nowWait });
    expect({ forecast: paths.forecast, soon: paths.soon }).toEqual({ forecast, soon });
  });

  it('leaves out the steps no later than now (a day older than the live data)', () => {
    const later = view(DAY, live(at(12), [{ name: 'Test Track', wait: 50 }]));
    expect(chartPaths(later, { ...series, outlook: [55, 50, 45] }).forecast).toBe('M120 10L150 15');
  });

  it('marks the best time with a ring and its hole, and nothing without one', () => {
    const paths = chartPaths(view(), { ...series, outlook: [45, 35, null], best: { at: at(12), wait: 35 } });
    expect([paths.ring, paths.hole]).toEqual(['M120 25h0', 'M120 25h0']);
    expect(chartPaths(view(), { ...series, outlook: [45, 35, null] }).ring).toBe('');
  });
});

describe('bestAhead: a ride’s best time still ahead, against the wait now', () => {
  const [soarin] = DAY.rides; // shortest expected: 35 at 12:00
  if (!soarin) throw new Error('no ride');

  it.each([
    ['is ahead, the wait now being longer', 40, { at: at(12), wait: 35, now: false }],
    ['says now is as good when the wait now is as short', 35, { at: at(12), wait: 35, now: true }],
    ['says now is as good when the wait now is shorter', 30, { at: at(12), wait: 35, now: true }],
    ['is ahead without a wait now to compare', null, { at: at(12), wait: 35, now: false }],
  ])('%s', (_, wait, best) => {
    expect(bestAhead(view(), soarin, wait)).toEqual(best);
  });

  it('is null when the ride has none, or when it is no longer ahead of the live data', () => {
    expect(bestAhead(view(), { ...soarin, bestTime: null }, 40)).toBeNull();
    expect(bestAhead(view(DAY, live(at(12), [])), soarin, 40)).toBeNull();
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

  it('averages the expected waits per step, and the lowest still ahead is the earliest of the shortest', () => {
    const series = parkSeries(view());
    expect(series.outlook).toEqual([50, 42.5, 45]);
    expect(series.lowest).toEqual({ at: at(12), wait: 43 });
    const level = { ...DAY, rides: DAY.rides.map((ride) => ({ ...ride, outlook: [40, 40, 40] })) };
    expect(parkSeries(view(level)).lowest).toEqual({ at: at(11, 30), wait: 40 });
  });

  it('has no lowest ahead once every step is past, or without an outlook', () => {
    expect(parkSeries(view(DAY, live(at(12, 30), [{ name: 'Soarin’', wait: 40 }]))).lowest).toBeNull();
    expect(parkSeries(view(NO_OUTLOOK)).lowest).toBeNull();
  });

  it('has no wait now when every ride is closed', () => {
    const closed = live(at(11), [{ name: 'Soarin’', open: false }]);
    expect(parkSeries(view(DAY, closed)).nowWait).toBeNull();
    expect(mean([null, undefined])).toBeNull();
  });
});

describe('closing: nothing drawn or advised past the park’s closing time', () => {
  /** DAY with the park's public day opening at 9:00 and closing at `closesAt`. */
  const closingAt = (closesAt: number) => ({ ...DAY, hours: { opensAt: at(9), closesAt, extras: [] } });
  const series = {
    width: 120,
    height: 60,
    waits: [],
    usual: [],
    nowWait: 50,
    soon: 55,
    best: null,
    marksClosing: true,
  };
  const [soarin, testTrack] = DAY.rides;
  if (!soarin || !testTrack) throw new Error('no rides');

  it('ends the chart and the dashed outlook at closing and marks it with an upright line', () => {
    // Closing at 12:00: the 12:30 step goes; x is minutes since 10:00 (120 over 120), y is 60 - wait.
    const shared = view(closingAt(at(12)));
    expect(shared.end).toBe(at(12));
    const paths = chartPaths(shared, { ...series, outlook: [55, 50, 45] });
    expect(paths.forecast).toBe('M60 10L90 5L120 10');
    expect(paths.closing).toBe('M120 0V60');
    expect(chartPaths(shared, { ...series, outlook: [], marksClosing: false }).closing).toBe('');
  });

  it('reaches to closing when the outlook ends earlier, so the marker shows', () => {
    const short = { ...closingAt(at(13)), outlookTimes: [at(11, 30)] };
    expect(view(short).end).toBe(at(13));
  });

  it.each([
    ['before closing, as given', at(12, 30), [{ at: at(12), wait: 35, now: false }, null]],
    ['at closing: none', at(12), [null, null]],
    ['after it: none', at(11, 45), [null, null]],
  ])('keeps a best time %s', (_, closesAt, expected) => {
    const shared = view(closingAt(closesAt));
    expect([bestAhead(shared, soarin, 40), bestAhead(shared, testTrack, 50)]).toEqual(expected);
  });

  it('draws no 30-minute step that would end after closing', () => {
    const paths = chartPaths(view(closingAt(at(11, 15))), { ...series, outlook: [null, null, null] });
    expect([paths.forecast, paths.soon]).toEqual(['', '']);
  });

  it('after closing draws the marker but no outlook, no step and no lowest average ahead', () => {
    // Closed at 10:30, the data from 11:00: the chart runs 10:00 to 11:30 (x in minutes over 90).
    const shared = view(closingAt(at(10, 30)));
    const paths = chartPaths(shared, { ...series, width: 90, outlook: [55, 50, 45] });
    expect([paths.forecast, paths.soon, paths.closing]).toEqual(['', '', 'M30 0V60']);
    expect(parkSeries(shared).lowest).toBeNull();
  });

  it('takes the lowest average still ahead before closing only', () => {
    expect(parkSeries(view(closingAt(at(12)))).lowest).toEqual({ at: at(11, 30), wait: 50 });
  });

  it.each([
    ['unknown hours', null, Number.POSITIVE_INFINITY],
    ['hours of an earlier day', { opensAt: at(-15), closesAt: at(-2), extras: [] }, Number.POSITIVE_INFINITY],
    ['a closing after midnight', { opensAt: at(10), closesAt: at(25), extras: [] }, at(25)],
  ])('takes no closing from %s, and the day’s own otherwise', (_, hours, closing) => {
    expect(closingOf({ ...DAY, hours })).toBe(closing);
  });
});
