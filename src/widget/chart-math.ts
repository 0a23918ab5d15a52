import { HALF_HOUR_MS } from '../platform/time-units.ts';
import type { BestTime, RideDay, WaitHistory } from '../wait-times/day/history-schemas.ts';
import type { WaitTimes } from '../wait-times/wait-times-schemas.ts';

/** Half hours of the local day, as in a ride's `usual` list. */
const SLOTS = 48;

type Wait = number | null | undefined;
export const known = (value: Wait): value is number => Number.isFinite(value);

export const mean = (values: readonly Wait[]): number | null => {
  const list = values.filter(known);
  return list.length ? list.reduce((sum, value) => sum + value, 0) / list.length : null;
};

/** What the charts share: the time span, the wait scale, the rides by name and the half hour of the live data. */
export type DayView = NonNullable<ReturnType<typeof dayView>>;

export function dayView(day: WaitHistory | null, data: WaitTimes | null) {
  if (!day || !data) return null;
  // Start of half hour i, counted back from the day's end, so it stays right after a DST change
  // (they happen at night, before any park opens).
  const slotAt = (i: number) => day.dayEndsAt - (SLOTS - i) * HALF_HOUR_MS;
  const edges = Array.from({ length: SLOTS }, (_, i) => i)
    .filter((i) => day.rides.some((ride) => known(ride.usual[i])))
    .flatMap((i) => [slotAt(i), slotAt(i + 1)]);
  const start = Math.min(...day.times.slice(0, 1), ...edges);
  if (!known(start)) return null;
  const now = data.updatedAt;
  const closesAt = closingOf(day);
  // The outlook reaches as far as any ride's last expected wait (the end of the day, or less), never past closing.
  const ahead = day.outlookTimes.filter(
    (t, i) => t > now && t <= closesAt && day.rides.some((ride) => known(ride.outlook[i])),
  );
  const waits = [
    ...day.rides.flatMap((ride) => [...ride.waits, ...ride.usual, ...ride.outlook]),
    ...data.rides.flatMap((ride) => (known(ride.forecast) ? [ride.forecast, ride.wait] : [])),
  ];
  const max = waits.reduce<number>((top, wait) => (known(wait) ? Math.max(top, wait) : top), 30);
  return {
    day,
    data,
    start,
    end: Math.max(
      now + HALF_HOUR_MS,
      ...edges,
      ...ahead,
      start + HALF_HOUR_MS,
      closesAt <= day.dayEndsAt ? closesAt : 0,
    ),
    max: Math.ceil(max / 30) * 30,
    now,
    closesAt,
    nowIndex: Math.min(SLOTS - 1, Math.max(0, SLOTS - Math.ceil((day.dayEndsAt - now) / HALF_HOUR_MS))),
    slotAt,
    byName: new Map(day.rides.map((ride) => [ride.name, ride])),
  };
}

/**
 * When the day of the chart closes to the public (its `hours`, which may run past midnight), or
 * Infinity when unknown: nothing is drawn or advised past it.
 */
export function closingOf(day: WaitHistory): number {
  const closesAt = day.hours?.closesAt;
  return known(closesAt) && closesAt > day.dayStartsAt ? closesAt : Number.POSITIVE_INFINITY;
}

/** One chart's waits: per sample of the day, per usual half hour, now, in half an hour, per step of the outlook. */
export type Series = {
  width: number;
  height: number;
  waits: readonly Wait[];
  usual: readonly Wait[];
  nowWait: Wait;
  soon: Wait;
  outlook: readonly Wait[];
  best: BestTime | null;
  /** Marks closing with an upright line (the park chart; on every ride's small chart it would be clutter). */
  marksClosing?: boolean;
};

const fixed = (value: number) => Math.round(value * 10) / 10;

/**
 * SVG paths by the class that draws each: the usual day as a band, today as a line (broken while closed), now as a
 * line and a dot, the outlook as dashes to the end of the day or closing (without one, the forecast as a dashed step
 * to a dot, if before closing), the best time as a `ring` and its `hole`, and if asked, closing as an upright
 * `closing` line; '' for what is not known.
 */
export function chartPaths(view: DayView, series: Series) {
  const { width, height, waits, usual, nowWait, soon, outlook, best, marksClosing } = series;
  const x = (t: number) => fixed(((t - view.start) / (view.end - view.start)) * width);
  const y = (wait: number) => fixed(height - (Math.min(wait, view.max) / view.max) * height);
  let band = '';
  usual.forEach((wait, i) => {
    const [from, to] = [x(view.slotAt(i)), x(view.slotAt(i + 1))];
    if (known(wait) && to >= 0 && from <= width)
      band += `M${Math.max(0, from)} ${height}V${y(wait)}H${Math.min(width, to)}V${height}Z`;
  });
  /** A line through the known points, broken where a wait is unknown; a lone point is a dot. */
  const line = (times: readonly number[], values: readonly Wait[]) => {
    let d = '';
    times.forEach((t, i) => {
      const wait = values[i];
      if (!known(wait)) return;
      const joined = known(values[i - 1]);
      d += `${joined ? 'L' : 'M'}${x(t)} ${y(wait)}${joined || known(values[i + 1]) ? '' : 'h0'}`;
    });
    return d;
  };
  const dot = (t: number, wait: number) => `M${x(t)} ${y(wait)}h0`;
  const { now, closesAt } = view;
  const steps = view.day.outlookTimes.flatMap((t, i) => (t > now && t <= closesAt ? [[t, outlook[i]] as const] : []));
  const later = known(nowWait) && steps.some(([, wait]) => known(wait));
  const step = !later && known(nowWait) && known(soon) && now + HALF_HOUR_MS <= closesAt;
  const ring = best ? dot(best.at, best.wait) : '';
  return {
    usual: band,
    nowline: `M${x(view.now)} 0V${height}`,
    today: line(view.day.times, waits),
    forecast: later
      ? line([view.now, ...steps.map(([t]) => t)], [nowWait, ...steps.map(([, wait]) => wait)])
      : step
        ? `M${x(view.now)} ${y(nowWait)}L${x(view.now + HALF_HOUR_MS)} ${y(soon)}`
        : '',
    soon: step ? dot(view.now + HALF_HOUR_MS, soon) : '',
    now: known(nowWait) ? dot(view.now, nowWait) : '',
    ring,
    hole: ring,
    closing: marksClosing && closesAt >= view.start && closesAt <= view.end ? `M${x(closesAt)} 0V${height}` : '',
  };
}

/** A ride's best time if still ahead of the live data and before closing, and whether the wait now is as short. */
export function bestAhead(view: DayView, ride: RideDay, wait: Wait) {
  const best = ride.bestTime;
  return best && best.at > view.now && best.at < view.closesAt
    ? { ...best, now: known(wait) && wait <= best.wait }
    : null;
}

/** The park's series (averages across rides) and the outlook's lowest average still ahead before closing (the earliest of equals). */
export function parkSeries(view: DayView) {
  const { day, data, nowIndex } = view;
  const average = (length: number, of: (ride: RideDay) => readonly Wait[]) =>
    Array.from({ length }, (_, i) => mean(day.rides.map((ride) => of(ride)[i])));
  const waits = average(day.times.length, (ride) => ride.waits);
  const usual = average(SLOTS, (ride) => ride.usual);
  const outlook = average(day.outlookTimes.length, (ride) => ride.outlook);
  const round = (wait: Wait) => (known(wait) ? Math.round(wait) : null);
  const nowWait = round(mean(data.rides.filter((ride) => ride.open).map((ride) => ride.wait)));
  const lowest = outlook.reduce<BestTime | null>((low, average, i) => {
    const [at, wait] = [day.outlookTimes[i] ?? 0, round(average)];
    const ahead = at > view.now && at < view.closesAt;
    return known(wait) && ahead && (!low || wait < low.wait) ? { at, wait } : low;
  }, null);
  return { waits, usual, outlook, nowWait, usualNow: round(usual[nowIndex]), lowest };
}
