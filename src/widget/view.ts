import { MINUTE_MS, MINUTES_PER_HOUR } from '../platform/time-units.ts';
import type { AccuracyRow } from '../wait-times/accuracy/accuracy-schemas.ts';
import type { Ride, Trend } from '../wait-times/wait-times-schemas.ts';
import { accuracyText, rowSpoken, WINDOW } from './accuracy-line.ts';
import { bestAhead, chartPaths, type DayView, known, parkSeries, type Series } from './chart-math.ts';
import { downOf, downText } from './down-line.ts';
import { clockIn, type HoursLine } from './park-hours-line.ts';

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | false | null | undefined>;

/** A DOM element with attributes and children; text always goes in as text, never as markup. */
const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
) => fill(document.createElement(tag), attributes, children);

const svg = (tag: string, attributes: Attributes, ...children: Child[]) =>
  fill(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes, children);

function fill<E extends Element>(node: E, attributes: Attributes, children: (Child | Child[])[]): E {
  for (const [name, value] of Object.entries(attributes)) if (value) node.setAttribute(name, value);
  node.append(...children.flat().filter((child): child is Node | string => !!child));
  return node;
}

const hidden = (text: string) => h('span', { class: 'vh' }, text);
const minutes = (value: number) => [String(value), h('span', { class: 'unit' }, ' min')];
const symbol = (glyph: string) => h('span', { 'aria-hidden': 'true' }, glyph);
const noneCell = (cls: string, missing: string) => h('td', { class: `${cls} none` }, symbol('–'), hidden(missing));

export function ago(ms: number): string {
  const total = Math.max(0, Math.floor(ms / MINUTE_MS));
  if (total < 1) return 'just now';
  if (total < MINUTES_PER_HOUR) return `${total} min ago`;
  const hours = Math.floor(total / MINUTES_PER_HOUR);
  return total % MINUTES_PER_HOUR ? `${hours} h ${total % MINUTES_PER_HOUR} min ago` : `${hours} h ago`;
}

const TRENDS: Record<Trend, [string, string]> = { up: ['↑', 'rising'], down: ['↓', 'falling'], flat: ['→', 'steady'] };

export function row(ride: Ride, view: DayView | null): HTMLTableRowElement {
  const trend = Object.hasOwn(TRENDS, ride.trend) ? ride.trend : 'flat';
  const [arrow, word] = TRENDS[trend];
  // Down, not merely closed, while the day says an outage is running and the live data agrees.
  const down = ride.open ? null : downOf(view?.byName.get(ride.name));
  const part = ride.open ? 'row' : down ? 'row closed-row down-row' : 'row closed-row';
  return h(
    'tr',
    { part, class: ride.open ? null : 'closed' },
    h('th', { scope: 'row' }, ride.name, down && h('span', { class: 'outage', part: 'outage' }, downText(down))),
    h('td', { class: 'num' }, ride.open ? minutes(ride.wait) : down ? 'Down' : 'Closed'),
    ride.open ? h('td', { class: `trend ${trend}` }, symbol(arrow), hidden(word)) : noneCell('trend', 'none'),
    ride.open && known(ride.forecast)
      ? h('td', { class: 'num' }, minutes(ride.forecast))
      : noneCell('num', 'no forecast'),
    dayCell(ride, view),
  );
}

/** A chart of one series, stretched to the space it gets; strokes and dots keep their size. */
function chart(view: DayView, series: Series, cls: string, label?: string): SVGElement {
  const frame = { class: cls, viewBox: `0 0 ${series.width} ${series.height}`, preserveAspectRatio: 'none' };
  const paths = chartPaths(view, series);
  return svg(
    'svg',
    label ? { ...frame, role: 'img', 'aria-label': label } : { ...frame, 'aria-hidden': 'true', focusable: 'false' },
    ...Object.entries(paths).map(
      ([name, d]) => d && svg('path', { class: name, d, 'vector-effect': name !== 'usual' && 'non-scaling-stroke' }),
    ),
  );
}

function dayCell(ride: Ride, view: DayView | null): HTMLTableCellElement {
  const day = view?.byName.get(ride.name);
  if (!view || !day) return noneCell('day', 'no history today');
  const usualNow = day.usual[view.nowIndex];
  const [nowWait, soon] = ride.open ? [ride.wait, ride.forecast] : [null, null];
  const best = ride.open ? bestAhead(view, day, nowWait) : null;
  const bestAt = best && clockIn(best.at, view.day.timeZone);
  const series = { width: 120, height: 36, waits: day.waits, usual: day.usual, nowWait, soon, outlook: day.outlook };
  // Read out instead of the chart: "45 min now, usually 30 at this hour, about 50 in half an hour.
  // Best time still ahead: about 17:30, around 15 min.", or as much as is known.
  const usually = known(usualNow) ? `usually ${usualNow} at this hour` : 'no usual wait learned for this hour yet';
  const later = known(soon) ? `, about ${soon} in half an hour` : '';
  const then = !best
    ? ''
    : best.now
      ? ' Now is as good as it gets today: no shorter wait expected later.'
      : ` Best time still ahead: about ${bestAt}, around ${best.wait} min.`;
  return h(
    'td',
    { class: 'day', part: 'day' },
    // The ring marks the best time, or now when now is as good.
    chart(view, { ...series, best: best?.now ? { at: view.now, wait: ride.wait } : best }, 'chart'),
    h('span', { class: 'usually', 'aria-hidden': 'true' }, known(usualNow) ? `usually ${usualNow}` : ''),
    best &&
      h(
        'span',
        { class: 'best', 'aria-hidden': 'true' },
        // Lines break after "best" and the time, never inside them (narrow: three short lines).
        best.now ? 'best now' : `best ${bestAt?.replace(/\s/g, '\u00a0')}, ~${best.wait}\u00a0min`,
      ),
    hidden(ride.open ? `${ride.wait} min now, ${usually}${later}.${then}` : `Closed now, ${usually}.`),
  );
}

const CROWD = {
  busier: (pct: number) => `Busier than usual today: waits are ${pct} % longer than usual at these hours.`,
  quieter: (pct: number) => `Quieter than usual today: waits are ${pct} % shorter than usual at these hours.`,
  usual: () => 'A usual day: waits are about as long as usual at these hours.',
};

/** The park's crowd level in words and its average wait today against the usual day. */
export function summary(view: DayView): Node[] {
  const { crowd, timeZone } = view.day;
  const word = crowd?.level && Object.hasOwn(CROWD, crowd.level) ? crowd.level : null;
  const text = word
    ? CROWD[word](Math.round(Math.abs((crowd.ratio ?? 1) - 1) * 100))
    : 'Not enough history yet to compare today with a usual day.';
  const basis =
    word && known(crowd.since)
      ? ` Compared ${crowd.comparisons} readings of ${crowd.rides} rides since ${clockIn(crowd.since, timeZone)}.`
      : '';
  const { waits, usual, outlook, nowWait, usualNow, lowest } = parkSeries(view);
  const closing = Number.isFinite(view.closesAt) && view.closesAt <= view.end ? ' · upright line: closing' : '';
  const ahead = lowest
    ? `; shortest expected later today: about ${lowest.wait} min at ${clockIn(lowest.at, timeZone)}`
    : '';
  const label = `Average wait across rides today against a usual day${
    known(nowWait) ? `: ${nowWait} min now${known(usualNow) ? `, usually ${usualNow} at this hour` : ''}${ahead}` : ''
  }.`;
  const series = {
    width: 300,
    height: 60,
    waits,
    usual,
    nowWait,
    soon: null,
    outlook,
    best: lowest,
    marksClosing: true,
  };
  return [
    h('p', {}, h('span', { class: 'crowd', part: 'crowd' }, text), basis),
    chart(view, series, 'park-chart', label),
    h(
      'p',
      { class: 'axis', 'aria-hidden': 'true' },
      h('span', {}, clockIn(view.start, timeZone)),
      h('span', { class: 'legend' }, `line: today · dashes: outlook · ring: best time · band: usual${closing}`),
      h('span', {}, clockIn(view.end, timeZone)),
    ),
  ];
}

/** The park's hours in a line (the text shown, its parts kept whole, the sentence read out), or nothing when unknown. */
export function hoursView(line: HoursLine | null): Node[] {
  if (!line) return [];
  const parts = line.text.split(' · ').map((part) => h('span', { class: 'nowrap' }, part));
  const shown = parts.flatMap((part, i) => (i ? [' · ', part] : [part]));
  return [h('span', { 'aria-hidden': 'true' }, shown), hidden(line.spoken)];
}

/**
 * The park's scorecard: the line, and the skill by horizon (30, 60, 120 min) as bars from zero with
 * their 95 % interval as a whisker, an image named with the same figures. Nothing without rows.
 */
export function accuracyView(rows: AccuracyRow[] | null): Node[] {
  if (!rows) return [];
  const [W, H, MID] = [50, 56, 22];
  const top = Math.min(
    1,
    Math.max(0.2, ...rows.flatMap((r) => [r.skill, r.skillLow, r.skillHigh].map((v) => Math.abs(v ?? 0)))),
  );
  const y = (v: number) => Math.round((MID - (Math.max(-1, Math.min(1, v)) / top) * 20) * 10) / 10;
  const columns = rows.map((row, i) => {
    const x = i * W + W / 2;
    const { skill, skillLow: low, skillHigh: high } = row;
    return [
      skill === null
        ? svg('text', { x: String(x), y: String(MID - 4) }, 'too few')
        : svg('path', { class: 'bar', d: `M${x - 9} ${y(0)}H${x + 9}V${y(skill)}H${x - 9}Z` }),
      low !== null &&
        high !== null &&
        svg('path', { class: 'whisker', d: `M${x} ${y(low)}V${y(high)}M${x - 4} ${y(low)}h8M${x - 4} ${y(high)}h8` }),
      svg('text', { x: String(x), y: String(H - 1) }, `${row.minutes} min`),
    ];
  });
  const label = `Forecast skill against no change by horizon, last ${WINDOW} days: ${rows.map(rowSpoken).join('; ')}.`;
  const text = h('p', { class: 'skill-line' }, accuracyText(rows.find((row) => row.minutes === 30)));
  // Nothing to draw before any horizon has a skill: the line says so alone.
  if (rows.every((row) => row.skill === null)) return [text];
  return [
    text,
    svg(
      'svg',
      { class: 'skill-chart', viewBox: `0 0 ${W * rows.length} ${H}`, role: 'img', 'aria-label': label },
      svg('path', { class: 'zero', d: `M0 ${MID}H${W * rows.length}` }),
      ...columns.flat(),
    ),
    h('p', { class: 'skill-legend', 'aria-hidden': 'true' }, 'bars: % closer than no change · whiskers: 95 % interval'),
  ];
}

const SORT_NAMES = { name: 'Name', 'wait-desc': 'Longest wait', 'wait-asc': 'Shortest wait' };

/** The element's fixed parts, filled in on every render. */
export function frame() {
  const openOnly = h('input', { type: 'checkbox', part: 'open-only' });
  const sort = h('select', { part: 'sort' });
  sort.append(...Object.entries(SORT_NAMES).map(([value, name]) => h('option', { value }, name)));
  const labels = [h('label', {}, openOnly, 'Open rides only'), h('label', {}, 'Sort by', sort)];
  const toolbar = h('div', { class: 'toolbar', part: 'toolbar' }, labels);
  const status = h('p', { class: 'status', part: 'status', role: 'status' });
  const caption = h('caption', { part: 'caption' });
  const rows = h('tbody');
  const heading = (cls: string | null, ...text: Child[]) => h('th', { scope: 'col', class: cls }, ...text);
  const headings = [
    heading(null, 'Ride'),
    heading('num', 'Wait'),
    heading('trend', 'Trend', hidden(' over the last 30 minutes')),
    heading('num', hidden('Forecast '), 'In 30 min'),
    heading('day', 'Today', hidden(' against a usual day')),
  ];
  const table = h('table', { part: 'table' }, caption, h('thead', {}, h('tr', {}, headings)), rows);
  const [time, age, summary] = [h('time'), h('span', { part: 'age' }), h('div', { class: 'summary', part: 'summary' })];
  const hours = h('p', { class: 'hours', part: 'hours' });
  const accuracy = h('div', { class: 'accuracy', part: 'accuracy' });
  // The provider's terms: "Powered by Queue-Times.com", linked, shown wherever its data is. The
  // hours' source is credited beside it whenever the hours line shows.
  const attribution = h('a', { href: 'https://queue-times.com/', part: 'attribution' }, 'Powered by Queue-Times.com');
  const hoursLink = h('a', { href: 'https://themeparks.wiki/' }, 'ThemeParks.wiki');
  const hoursCredit = h('span', { class: 'credit', part: 'hours-attribution' }, 'Park hours: ', hoursLink);
  const credits = h('span', { class: 'credits' }, attribution, hoursCredit);
  const footer = h('p', { class: 'footer', part: 'footer' }, age, credits);
  const root = h('div', { class: 'frame', part: 'frame' }, hours, toolbar, status, summary, table, accuracy, footer);
  return {
    root,
    accuracy,
    openOnly,
    sort,
    toolbar,
    status,
    caption,
    rows,
    table,
    time,
    age,
    summary,
    hours,
    hoursCredit,
  };
}
