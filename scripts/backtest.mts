import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fromWallClock } from '../src/wait-times/local-time.ts';
import { gridSamples } from '../src/wait-times/wait-history.ts';
import { parkOfDayLog, parseDayLog } from './backtest/day-log.ts';
import { fitLad } from './backtest/fit.ts';
import { parsePostedWaits } from './backtest/posted-waits.ts';
import { type ParkSeries, replay } from './backtest/replay.ts';
import { POOLED, SEGMENTS, type Split } from './backtest/tally.ts';

/**
 * `npm run backtest [-- FILE …] [--train-share 0.6] [--timezone America/New_York] [--fit]`: the
 * outlook measured on real waits (docs/wait-times.md, "Forecasting"). All FILEs form one park:
 * TouringPlans.com `*.csv` (posted-waits.ts) or `*.jsonl` day logs (day-log.ts); by default the two
 * TouringPlans.com series in ../shared/data/touringplans/.
 */

const SHIPPED = path.resolve(import.meta.dirname, '../../shared/data/touringplans');
const KNOWN_RIDES: Readonly<Record<string, string>> = {
  'AK85.csv': "Na'vi River Journey (AK85)",
  'AK86.csv': 'Avatar Flight of Passage (AK86)',
};
const HORIZONS = [30, 60, 120, 240];
const GOALS = { ratio: { 30: 0.88, 60: 0.8, 120: 0.72 }, bestTime: 0.25 } as const;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'train-share': { type: 'string', default: '0.6' },
    timezone: { type: 'string', default: 'America/New_York' },
    fit: { type: 'boolean', default: false },
  },
});
const [trainShare, timeZone] = [Number(values['train-share']), values.timezone];
if (!(trainShare > 0 && trainShare < 1)) fail('--train-share must be a number between 0 and 1');
try {
  new Intl.DateTimeFormat('en-US', { timeZone });
} catch {
  fail(`--timezone ${timeZone} is not an IANA time zone`);
}
const files = positionals.length > 0 ? positionals : Object.keys(KNOWN_RIDES).map((name) => path.join(SHIPPED, name));

const started = performance.now();
const park = loadPark(files);
const horizons = values.fit ? [60, 120, 240, 360] : HORIZONS;
const { days, tally, fitRows } = await replay(park, { timeZone, trainShare, horizons, fitOnly: values.fit });
const seconds = (performance.now() - started) / 1000;

console.info(
  files.some((file) => file.endsWith('.csv'))
    ? 'Data: TouringPlans.com (https://touringplans.com/).'
    : 'Data: queue-times.com. Powered by Queue-Times.com (https://queue-times.com/).',
);
const range = (list: string[]) => `${list.length} days, ${list[0] ?? '–'} … ${list.at(-1) ?? '–'}`;
console.info(`Park days in time order (${timeZone}; a day starts at 04:00): training = the first
${percent(trainShare)}, ${range(days.training)}; validation = the rest, ${range(days.validation)}.\n`);
if (values.fit) {
  console.info('BLEND by least absolute deviations on the training days (rows 0 and 30 stay as they are):');
  for (const [horizon, rows] of fitRows) {
    const [chained, usual] = fitLad(rows);
    console.info(`  { horizon: ${horizon}, chained: ${chained}, usual: ${usual}, sharpen: 0 }, // ${rows.length} rows`);
  }
} else {
  report('validation', 'VALIDATION (never tuned on)');
  report('training', 'Training');
  console.info(`Cells: ours ÷ persistence (MAE ours / persistence / usual day, minutes). Best time: the
advice as the widget gives it (bestTime, or now when as short) against the rest-of-day mean; a best
time after the ride's last wait of the day counts as no gain (docs/wait-times.md, "Forecasting").`);
}
console.info(`${park.rides.length} rides; ${park.samples.length} park samples replayed in ${seconds.toFixed(1)} s.`);

function report(split: Split, title: string): void {
  if (days[split].length === 0) {
    console.info(`## ${title}: no days\n`);
    return;
  }
  // Every series in detail for a few rides (TouringPlans); for a whole park, the segments pooled only.
  const series = [...tally.series, POOLED].filter((name) => tally.series.size <= 5 || name === POOLED);
  const bold = (name: string, text: string) => (name === POOLED ? `**${text}**` : text);
  const rows = [...tally.series, POOLED].flatMap((name) =>
    SEGMENTS.filter((segment) => series.includes(name) || segment === 'all').map((segment) => [
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
  const unknown = HORIZONS.map((h) => {
    const { n = 0, usualUnknown = 0 } = tally.get(split, POOLED, `all ${h}`) ?? {};
    return `${h} min ${n} (usual not learned ${percent(usualUnknown / (n || 1))})`;
  });
  const bestRows = series.map((name) => {
    const sums = tally.get(split, name, 'best time') ?? {};
    const { checks = 0, compared = 0, restMean = 0 } = sums;
    const share = (key: string) => `${sums[key] ?? 0} (${percent((sums[key] ?? 0) / (checks || 1))})`;
    const mean = (key: string) => (compared ? ((sums[key] ?? 0) / compared).toFixed(1) : '–');
    const below = (key: string) => (restMean > 0 ? percent(1 - (sums[key] ?? 0) / restMean) : '–');
    const cells = ['noBestTime', 'bestNow', 'afterClose', 'unverified'].map(share);
    return [
      name,
      String(checks),
      ...cells,
      mean('atBest'),
      mean('restMean'),
      `${bold(name, below('atBest'))} (now ${below('now')}, last before closing ${below('lastOpenWait')}, lowest ${below('lowest')})`,
    ];
  });
  const goals = Object.entries(GOALS.ratio).map(([h, goal]) => {
    const { ours = 0, persistence = 0 } = tally.get(split, POOLED, `all ${h}`) ?? {};
    return `${ratio(ours, persistence)} at ${h} min (goal ≤ ${goal}: ${persistence > 0 && ours <= goal * persistence ? 'met' : 'missed'})`;
  });
  const { atBest = 0, restMean = 0, compared = 0, checks = 0 } = tally.get(split, POOLED, 'best time') ?? {};
  const below = restMean > 0 ? 1 - atBest / restMean : Number.NaN;
  const head = ['Series', 'Checks', 'No best time', 'Best now', 'After the ride closed', 'Not verifiable'];
  console.info(`## ${title}: ${range(days[split])}

${table(['Series', 'Segment', 'n (30 min)', ...HORIZONS.map((h) => `${h} min`)], rows)}

Pooled forecasts scored: ${unknown.join('; ')}.

${table([...head, 'Posted at advice', 'Rest-of-day mean', 'Advice below mean'], bestRows)}

Goals, pooled: ${goals.join('; ')}; best time ${percent(below)} below the rest-of-day mean on the
${percent(compared / (checks || 1))} of checks compared (goal ≥ ${percent(GOALS.bestTime)}: ${below >= GOALS.bestTime ? 'met' : 'missed'}).
`);
}

function loadPark(paths: readonly string[]): ParkSeries {
  const csv = paths.filter((file) => file.endsWith('.csv'));
  if (csv.length > 0 && csv.length < paths.length) fail('give TouringPlans CSV files or day logs, not both');
  try {
    if (csv.length === 0) return parkOfDayLog(paths.flatMap((file) => parseDayLog(readFileSync(file, 'utf8'))));
    const rides = csv.map((file) => {
      const { samples, skipped } = parsePostedWaits(readFileSync(file, 'utf8'), (wall) =>
        fromWallClock(wall, timeZone),
      );
      if (skipped > 0) console.info(`${file}: ${skipped} unreadable rows skipped.`);
      const name = KNOWN_RIDES[path.basename(file)] ?? path.basename(file, '.csv');
      return { id: name, name, samples, observations: samples };
    });
    return { rides, samples: gridSamples(rides) };
  } catch (error) {
    fail((error as Error).message);
  }
}

function ratio(ours: number, persistence: number): string {
  return persistence > 0 ? (ours / persistence).toFixed(3) : '–';
}

function percent(share: number): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(1)} %` : '–';
}

function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function fail(message: string): never {
  console.error(`backtest: ${message}`);
  process.exit(1);
}
