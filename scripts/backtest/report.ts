import { POOLED, SEGMENTS, type Split, type Tally } from './tally.ts';

/** The backtest's tables (Markdown, as docs/wait-times.md quotes them) and its goal lines. */

export const HORIZONS = [30, 60, 120, 240];
/** Issue goals: pooled ratios, each park's ratios (leave-one-park-out), the best time, advice past closing. */
export const GOALS = {
  pooled: { 30: 0.88, 60: 0.8, 120: 0.72 },
  eachPark: { 30: 0.92, 60: 0.85, 120: 0.78 },
  bestTime: 0.25,
  pastClosing: 0.01,
} as const;

export function ratio(ours: number, persistence: number): string {
  return persistence > 0 ? (ours / persistence).toFixed(3) : '–';
}

export function percent(share: number): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(1)} %` : '–';
}

export function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const dayRange = (list: readonly string[]) => `${list.length} days, ${list[0] ?? '–'} … ${list.at(-1) ?? '–'}`;
const bold = (name: string, text: string) => (name === POOLED ? `**${text}**` : text);

/** One row of error ratios per series and segment: ours ÷ persistence (MAE ours / persistence / usual day). */
export function errorRows(tally: Tally, split: Split, series: readonly string[], segments: readonly string[]) {
  return series.flatMap((name) =>
    segments.map((segment) => [
      name,
      segment,
      String(tally.get(split, name, `${segment} ${HORIZONS[0]}`)?.n ?? 0),
      ...HORIZONS.map((horizon) => {
        const { n = 0, ours = 0, persistence = 0, usual = 0 } = tally.get(split, name, `${segment} ${horizon}`) ?? {};
        const maes = [ours, persistence, usual].map((sum) => (sum / n).toFixed(2)).join(' / ');
        return n ? `${bold(name, ratio(ours, persistence))} (${maes})` : '–';
      }),
    ]),
  );
}

export const ERROR_HEADER = ['Series', 'Segment', 'n (30 min)', ...HORIZONS.map((h) => `${h} min`)];

/** The best time as checked, per series: its share below the rest-of-day mean, and how often the advice fell past closing. */
export function bestTimeOf(tally: Tally, split: Split, name: string) {
  const sums = tally.get(split, name, 'best time') ?? {};
  const { checks = 0, compared = 0, restMean = 0, atBest = 0, afterClose = 0 } = sums;
  return {
    sums,
    checks,
    compared,
    below: restMean > 0 ? 1 - atBest / restMean : Number.NaN,
    pastClosing: afterClose / (checks || 1),
  };
}

export function bestTimeRows(tally: Tally, split: Split, series: readonly string[]): string[][] {
  return series.map((name) => {
    const { sums, checks, compared } = bestTimeOf(tally, split, name);
    const share = (key: string) => `${sums[key] ?? 0} (${percent((sums[key] ?? 0) / (checks || 1))})`;
    const mean = (key: string) => (compared ? ((sums[key] ?? 0) / compared).toFixed(1) : '–');
    const below = (key: string) =>
      (sums.restMean ?? 0) > 0 ? percent(1 - (sums[key] ?? 0) / (sums.restMean ?? 1)) : '–';
    return [
      name,
      String(checks),
      ...['noBestTime', 'bestNow', 'afterClose', 'unverified'].map(share),
      mean('atBest'),
      mean('restMean'),
      `${bold(name, below('atBest'))} (now ${below('now')}, last before closing ${below('lastOpenWait')}, lowest ${below('lowest')})`,
    ];
  });
}

export const BEST_TIME_HEADER = [
  'Series',
  'Checks',
  'No best time',
  'Best now',
  'After the ride closed',
  'Not verifiable',
  'Posted at advice',
  'Rest-of-day mean',
  'Advice below mean',
];

const met = (ok: boolean) => (ok ? 'met' : 'missed');

/** Each ratio of `name` at the goal's horizons against it: `0.879 at 30 min (goal ≤ 0.88: met)`. */
export function ratioGoals(
  tally: Tally,
  split: Split,
  name: string,
  goals: Readonly<Record<number, number>>,
): { text: string; met: boolean }[] {
  return Object.entries(goals).map(([h, goal]) => {
    const { ours = 0, persistence = 0 } = tally.get(split, name, `all ${h}`) ?? {};
    const isMet = persistence > 0 && ours <= goal * persistence;
    return { text: `${ratio(ours, persistence)} at ${h} min (goal ≤ ${goal}: ${met(isMet)})`, met: isMet };
  });
}

export const goalTexts = (goals: readonly { text: string }[]) => goals.map(({ text }) => text).join('; ');

/** The best-time goals of `name`: at least 25 % below the rest-of-day mean, at most 1 % of the advice past closing. */
export function bestTimeGoals(tally: Tally, split: Split, name: string): string {
  const { below, pastClosing, compared, checks } = bestTimeOf(tally, split, name);
  return `best time ${percent(below)} below the rest-of-day mean on the ${percent(compared / (checks || 1))} of checks compared (goal ≥ ${percent(GOALS.bestTime)}: ${met(below >= GOALS.bestTime)}), advice past closing ${percent(pastClosing)} (goal ≤ ${percent(GOALS.pastClosing)}: ${met(pastClosing <= GOALS.pastClosing)})`;
}

/** The report of one split of one park: every series in detail for a few rides, else the segments pooled. */
export function splitReport(tally: Tally, split: Split, title: string, days: readonly string[]): string {
  if (days.length === 0) return `## ${title}: no days\n`;
  const detailed = [...tally.series, POOLED].filter((name) => tally.series.size <= 5 || name === POOLED);
  const rows = [...tally.series, POOLED].flatMap((name) =>
    errorRows(tally, split, [name], detailed.includes(name) ? SEGMENTS : ['all']),
  );
  const unknown = HORIZONS.map((h) => {
    const { n = 0, usualUnknown = 0 } = tally.get(split, POOLED, `all ${h}`) ?? {};
    return `${h} min ${n} (usual not learned ${percent(usualUnknown / (n || 1))})`;
  });
  return `## ${title}: ${dayRange(days)}

${table(ERROR_HEADER, rows)}

Pooled forecasts scored: ${unknown.join('; ')}.

${table(BEST_TIME_HEADER, bestTimeRows(tally, split, detailed))}

Goals, pooled: ${goalTexts(ratioGoals(tally, split, POOLED, GOALS.pooled))}; ${bestTimeGoals(tally, split, POOLED)}.
`;
}
