import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fromWallClock } from '../src/wait-times/local-time.ts';
import { parkOfDayLog, parseDayLog } from './backtest/day-log.ts';
import { fitLad } from './backtest/fit.ts';
import { gridSamples, parsePostedWaits } from './backtest/posted-waits.ts';
import { type ParkSeries, replay } from './backtest/replay.ts';
import { POOLED, SEGMENTS, type Split, type Sums } from './backtest/tally.ts';

/**
 * `npm run backtest [-- FILE …] [--train-share 0.6] [--timezone America/New_York] [--fit]`
 *
 * Measures the rest-of-day outlook (src/wait-times/forecast/outlook.ts) on real posted waits
 * replayed through the service's own code (scripts/backtest/replay.ts): the MAE of ours, of
 * persistence and of the usual day at 30, 60, 120 and 240 minutes, per ride and pooled, apart for
 * the ride's first hour open, waits of 40 or more and the rest; and the best-time check. Park days
 * in time order: the first share trains, the rest validates. `--fit` fits the BLEND weights on the
 * training days and prints them. All FILEs form one park:
 * - `*.csv`: TouringPlans.com's format, one ride per file (`datetime` local, `SPOSTMIN`, -999
 *   down), sampled every 5 minutes as the service samples;
 * - `*.jsonl`: a queue-times sample log as production keeps it, one day record
 *   (`day/<slug>/<date>`, DayRecordSchema) per line; scripts/backtest/to-day-log.mts writes one
 *   from a CSV of queue-times waits (a real one: fixtures/queue-times-log/).
 * Without files: the two TouringPlans.com series in ../shared/data/touringplans/ (Animal Kingdom).
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

if (files.some((file) => file.endsWith('.csv'))) console.info('Data: TouringPlans.com (https://touringplans.com/).');
else console.info('Data: queue-times.com. Powered by Queue-Times.com (https://queue-times.com/).');
const range = (list: string[]) => `${list.length} days, ${list[0] ?? '–'} … ${list.at(-1) ?? '–'}`;
console.info(`Park days in time order (${timeZone}; a day starts at 04:00):
- training   = the first ${percent(trainShare)}: ${range(days.training)}
- validation = the last ${percent(1 - trainShare)}: ${range(days.validation)}
The BLEND weights in outlook.ts were fitted on the training days of the two TouringPlans.com
series only (--fit fits them again); nothing was tuned on validation days.
`);
if (values.fit) {
  console.info('BLEND by least absolute deviations on the training days (rows 0 and 30 stay [.., 1, 0]):');
  for (const [horizon, rows] of fitRows)
    console.info(`  [${horizon}, ${fitLad(rows).join(', ')}], // ${rows.length} rows`);
} else {
  report('validation', 'VALIDATION (never tuned on)');
  report('training', 'Training');
  console.info(`Cells: ours ÷ persistence (MAE ours / persistence / usual day, minutes); ours is what the
endpoint shows (5-minute steps), persistence where the model says null; "usual day" is the usual
wait at the target half hour (usualWaitOf), persistence where not learned yet. Outcome: the last
wait posted at or before the target, at most 15 minutes old. Origins: every sample with the ride
open and an open outcome. Segments: the ride's first hour after its first open sample of the day,
else a wait now of 40 or more, else the rest. Best time: at the ride's first open sample of the
day, then hourly, bestTime over the rest of the local day (rideOutlookOf) against the waits posted
after the origin: "below mean" = 1 − mean posted at best ÷ mean rest-of-day mean over the checks
compared (the same for the wait at the origin, "now", and the lowest posted later, for scale).`);
}
for (const ride of park.rides.slice(0, 5)) console.info(`${ride.name}: ${ride.observations.length} observations.`);
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
        const sums = tally.get(split, name, `${segment} ${horizon}`);
        if (!sums?.n) return '–';
        const maes = [sums.ours, sums.persistence, sums.usual].map((sum = 0) => (sum / (sums.n ?? 1)).toFixed(2));
        return `${bold(name, ratio(sums.ours, sums.persistence, 3))} (${maes.join(' / ')})`;
      }),
    ]),
  );
  console.info(
    `## ${title}\n\n${table(['Series', 'Segment', 'n (30 min)', ...HORIZONS.map((h) => `${h} min`)], rows)}`,
  );
  const unknown = HORIZONS.map((h) => {
    const { n = 0, usualUnknown = 0 } = tally.get(split, POOLED, `all ${h}`) ?? {};
    return `${h} min: ${n} (usual not learned ${percent(usualUnknown / (n || 1))})`;
  });
  console.info(`\nPooled forecasts scored: ${unknown.join('; ')}.\n\nBest time (${split} days):\n`);
  const head = ['Series', 'Checks', 'No best time', 'After the ride closed', 'Not verifiable', 'Posted at best'];
  const bestRows = series.map((name) => bestTimeRow(name, tally.get(split, name, 'best time') ?? {}, bold));
  console.info(table([...head, 'Rest-of-day mean', 'Best below mean'], bestRows));
  const goals = Object.entries(GOALS.ratio).map(([h, goal]) => {
    const { ours = 0, persistence = 0 } = tally.get(split, POOLED, `all ${h}`) ?? {};
    return `${ratio(ours, persistence, 3)} at ${h} min (goal ≤ ${goal}: ${persistence > 0 && ours <= goal * persistence ? 'met' : 'missed'})`;
  });
  const { atBest = 0, restMean = 0, compared = 0, checks = 0 } = tally.get(split, POOLED, 'best time') ?? {};
  const below = restMean > 0 ? 1 - atBest / restMean : Number.NaN;
  console.info(`\nGoals, pooled: ${goals.join('; ')}; best time ${percent(below)} below the rest-of-day mean on the
${percent(compared / (checks || 1))} of checks that could be compared (goal ≥ ${percent(GOALS.bestTime)}: ${below >= GOALS.bestTime ? 'met there' : 'missed'}).\n`);
}

function bestTimeRow(name: string, sums: Sums, bold: (name: string, text: string) => string): string[] {
  const { checks = 0, compared = 0, restMean = 0 } = sums;
  const share = (key: string) => `${sums[key] ?? 0} (${percent((sums[key] ?? 0) / (checks || 1))})`;
  const mean = (key: string) => (compared ? ((sums[key] ?? 0) / compared).toFixed(1) : '–');
  const below = (key: string) => (restMean > 0 ? percent(1 - (sums[key] ?? 0) / restMean) : '–');
  const scale = `(now ${below('now')}, lowest ${below('lowest')})`;
  const cells = [share('noBestTime'), share('afterClose'), share('unverified'), mean('atBest'), mean('restMean')];
  return [name, String(checks), ...cells, `${bold(name, below('atBest'))} ${scale}`];
}

function loadPark(paths: readonly string[]): ParkSeries {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      fail(`cannot read ${file}: ${(error as Error).message}`);
    }
  };
  const csv = paths.filter((file) => file.endsWith('.csv'));
  if (csv.length > 0 && csv.length < paths.length) fail('give TouringPlans CSV files or day logs, not both');
  try {
    if (csv.length === 0) return parkOfDayLog(paths.flatMap((file) => parseDayLog(read(file))));
    const rides = csv.map((file) => {
      const { samples, skipped } = parsePostedWaits(read(file), (wall) => fromWallClock(wall, timeZone));
      if (skipped > 0) console.info(`${file}: ${skipped} unreadable rows skipped.`);
      const name = KNOWN_RIDES[path.basename(file)] ?? path.basename(file, '.csv');
      return { id: name, name, samples, observations: samples };
    });
    return { rides, samples: gridSamples(rides) };
  } catch (error) {
    fail((error as Error).message);
  }
}

function ratio(ours = 0, persistence = 0, digits = 3): string {
  return persistence > 0 ? (ours / persistence).toFixed(digits) : '–';
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
