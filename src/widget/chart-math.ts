import type { WaitHistory } from '../wait-times/day/history-schemas.ts';
import type { WaitTimes } from '../wait-times/wait-times-schemas.ts';

export const HALF_HOUR = 30 * 60_000;
/** Half hours of the local day, as in a ride's `usual` list. */
const SLOTS = 48;

type Wait = number | null | undefined;
export const known = (value: Wait): value is number => Number.isFinite(value);

export const mean = (values: readonly Wait[]): number | null => {
  const list = values.filter(known);
  return list.length ? list.reduce((sum, value) => sum + value, 0) / list.length : null;
};

/**
 * What the charts share: the time span (the hours with samples or a usual wait), the wait scale,
 * the rides of the day by name and the half hour of "now" (the time of the live data).
 */
export type DayView = NonNullable<ReturnType<typeof dayView>>;

export function dayView(day: WaitHistory | null, data: WaitTimes | null) {
  if (!day || !data) return null;
  // Start of half hour i, counted back from the day's end, so it stays right after a DST change
  // (they happen at night, before any park opens).
  const slotAt = (i: number) => day.dayEndsAt - (SLOTS - i) * HALF_HOUR;
  const learned = Array.from({ length: SLOTS }, (_, i) => i).filter((i) =>
    day.rides.some((ride) => known(ride.usual[i])),
  );
  const edges = learned.flatMap((i) => [slotAt(i), slotAt(i + 1)]);
  const first = day.times.slice(0, 1).filter(known);
  if (first.length === 0 && edges.length === 0) return null;
  const now = data.updatedAt;
  const start = Math.min(...first, ...edges);
  const waits = [
    ...day.rides.flatMap((ride) => [...ride.waits, ...ride.usual]),
    ...data.rides.flatMap((ride) => (known(ride.forecast) ? [ride.forecast, ride.wait] : [])),
  ];
  const max = waits.reduce<number>((top, wait) => (known(wait) ? Math.max(top, wait) : top), 30);
  return {
    day,
    data,
    start,
    end: Math.max(now + HALF_HOUR, ...edges, start + HALF_HOUR),
    max: Math.ceil(max / 30) * 30,
    now,
    nowIndex: Math.min(SLOTS - 1, Math.max(0, SLOTS - Math.ceil((day.dayEndsAt - now) / HALF_HOUR))),
    slotAt,
    byName: new Map(day.rides.map((ride) => [ride.name, ride])),
  };
}

/** One chart's series: a wait per sample of the day, a usual wait per half hour, now and soon. */
export type Series = {
  width: number;
  height: number;
  waits: readonly Wait[];
  usual: readonly Wait[];
  nowWait: Wait;
  soon: Wait;
};

const fixed = (value: number) => Math.round(value * 10) / 10;

/**
 * SVG paths of a series against its usual day, by the class that draws each: the usual wait per
 * half hour as a band, today's waits as a line (broken while closed), a line at now, now as a dot
 * and the forecast as a dashed step to a dot; '' for what is not known.
 */
export function chartPaths(view: DayView, { width, height, waits, usual, nowWait, soon }: Series) {
  const x = (t: number) => fixed(((t - view.start) / (view.end - view.start)) * width);
  const y = (wait: number) => fixed(height - (Math.min(wait, view.max) / view.max) * height);
  let band = '';
  usual.forEach((wait, i) => {
    const [from, to] = [x(view.slotAt(i)), x(view.slotAt(i + 1))];
    if (known(wait) && to >= 0 && from <= width)
      band += `M${Math.max(0, from)} ${height}V${y(wait)}H${Math.min(width, to)}V${height}Z`;
  });
  let line = '';
  view.day.times.forEach((t, i) => {
    const wait = waits[i];
    if (!known(wait)) return;
    const joined = known(waits[i - 1]);
    line += `${joined ? 'L' : 'M'}${x(t)} ${y(wait)}${joined || known(waits[i + 1]) ? '' : 'h0'}`;
  });
  const dot = (t: number, wait: number) => `M${x(t)} ${y(wait)}h0`;
  const ahead = known(nowWait) && known(soon);
  return {
    usual: band,
    nowline: `M${x(view.now)} 0V${height}`,
    today: line,
    forecast: ahead ? `M${x(view.now)} ${y(nowWait)}L${x(view.now + HALF_HOUR)} ${y(soon)}` : '',
    soon: ahead ? dot(view.now + HALF_HOUR, soon) : '',
    now: known(nowWait) ? dot(view.now, nowWait) : '',
  };
}

/** The park's series: the average wait across rides at each time today and per usual half hour. */
export function parkSeries(view: DayView) {
  const { day, data, nowIndex } = view;
  const waits = day.times.map((_, i) => mean(day.rides.map((ride) => ride.waits[i])));
  const usual = Array.from({ length: SLOTS }, (_, i) => mean(day.rides.map((ride) => ride.usual[i])));
  const open = data.rides.filter((ride) => ride.open);
  const nowWait = open.length ? Math.round(mean(open.map((ride) => ride.wait)) ?? 0) : null;
  const usualThen = usual[nowIndex];
  return { waits, usual, nowWait, usualNow: known(usualThen) ? Math.round(usualThen) : null };
}
