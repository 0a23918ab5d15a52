import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parkOfDayLog, parseDayLog } from './backtest/day-log.ts';
import { fitLad } from './backtest/fit.ts';
import { type BacktestPark, leaveOneParkOut, leaveOneParkOutReport } from './backtest/leave-one-park-out.ts';
import { reportOutages } from './backtest/outages-report.ts';
import { type ParkHoursTable, parseParkHours, WDW_PARKS, type WdwPark } from './backtest/park-hours.ts';
import { type ParkSeries, replay } from './backtest/replay.ts';
import { dayRange, ERROR_HEADER, errorRows, HORIZONS, percent, splitReport, table } from './backtest/report.ts';
import { POOLED } from './backtest/tally.ts';
import {
  PARK_NAMES,
  parkOfPostedWaits,
  SHIPPED_DIR,
  SHIPPED_SERIES,
  shippedSeriesOf,
  WDW_TIME_ZONE,
} from './backtest/touringplans.ts';

/**
 * `npm run backtest [-- FILE …] [--hours FILE] [--park MK|EP|HS|AK] [--train-share 0.6]
 * [--timezone America/New_York] [--fit] [--outages]`: the outlook measured on real waits (docs/wait-times.md,
 * "Forecasting"); with `--outages`, the reopen odds of down rides instead (docs/outages.md). Without FILEs: every TouringPlans.com series in ../shared/data/touringplans/,
 * leave one park out over the four Walt Disney World parks, and the queue-times log in
 * fixtures/queue-times-log/. With FILEs: they form one park, TouringPlans.com `*.csv`
 * (posted-waits.ts) or `*.jsonl` day logs (day-log.ts), split in time into training and validation.
 * `--hours`: TouringPlans.com's park metadata CSV (park-hours.ts), each day's hours as production knows them.
 */

const QUEUE_TIMES_LOG = {
  file: path.resolve(import.meta.dirname, '../fixtures/queue-times-log/europa-park-2025-12-18.jsonl'),
  timeZone: 'Europe/Berlin',
};
const TOURINGPLANS_CREDIT = 'Data: TouringPlans.com (https://touringplans.com/).';
const QUEUE_TIMES_CREDIT = 'Data: queue-times.com. Powered by Queue-Times.com (https://queue-times.com/).';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'train-share': { type: 'string', default: '0.6' },
    timezone: { type: 'string', default: WDW_TIME_ZONE },
    hours: { type: 'string' },
    park: { type: 'string' },
    fit: { type: 'boolean', default: false },
    outages: { type: 'boolean', default: false },
  },
});
const [trainShare, timeZone] = [Number(values['train-share']), values.timezone];
if (!(trainShare > 0 && trainShare < 1)) fail('--train-share must be a number between 0 and 1');
try {
  new Intl.DateTimeFormat('en-US', { timeZone });
} catch {
  fail(`--timezone ${timeZone} is not an IANA time zone`);
}
const started = performance.now();
const hours = values.hours === undefined ? undefined : readHours(values.hours);
if (values.outages) outages();
else if (positionals.length > 0) await onePark(positionals);
else await everyPark();
const { user, system } = process.cpuUsage();
// On a shared machine the wall time says more about the neighbours than about the backtest.
console.info(
  `Ran in ${((performance.now() - started) / 1000).toFixed(1)} s (CPU ${((user + system) / 1e6).toFixed(1)} s).`,
);

/** The shipped data: leave one park out over Walt Disney World's four parks, then the queue-times log. */
async function everyPark(): Promise<void> {
  if (values.fit) fail('--fit fits one park (give its FILEs); leaving one park out fits every fold itself');
  const parks: BacktestPark[] = WDW_PARKS.map((code) => {
    const files = SHIPPED_SERIES.filter((series) => series.park === code);
    const series = loadCsvPark(files.map(({ file, ride }) => ({ path: path.join(SHIPPED_DIR, file), ride })));
    return { code, name: PARK_NAMES[code], series, timeZone: WDW_TIME_ZONE, hours: hours?.[code] };
  });
  console.info(`${TOURINGPLANS_CREDIT} ${SHIPPED_SERIES.length} rides in Walt Disney World's four parks${
    hours ? `; park hours: TouringPlans.com, ${values.hours} (the window with Extra Magic Hours)` : ''
  }.
Leave one park out: for each park, BLEND is fitted on the training days of the three others and the
park is replayed from its first day, learning as production does; it is scored on its validation
days, the last ${percent(1 - trainShare)} of its park days (a day starts at 04:00, ${WDW_TIME_ZONE}).\n`);
  const { folds, tally: folded } = await leaveOneParkOut(parks, {
    trainShare,
    horizons: HORIZONS,
    log: (line) => console.info(line),
  });
  console.info('\nBLEND per fold (horizon: chained / park-scaled usual; 0 and 30 minutes as shipped):');
  for (const { park, blend } of folds) {
    const rows = blend.filter(({ horizon }) => horizon > 30);
    console.info(
      `  ${park.name}: ${rows.map(({ horizon, chained, usual }) => `${horizon}: ${chained} / ${usual}`).join(', ')}`,
    );
  }
  const title = hours ? 'with the published hours (production)' : 'without park hours (the hours unknown)';
  console.info(`\n${leaveOneParkOutReport(folds, folded, `Leave one park out, ${title}`)}`);
  const log = parkOfDayLog(parseDayLog(readFileSync(QUEUE_TIMES_LOG.file, 'utf8')));
  const { days, tally } = await replay(log, { timeZone: QUEUE_TIMES_LOG.timeZone, trainShare, horizons: HORIZONS });
  console.info(`## Europa-Park, ${dayRange(days.validation)} (fixtures/queue-times-log; ${QUEUE_TIMES_CREDIT})

One afternoon, outside the folds: too short to learn a usual day from, so ours is persistence in
5-minute steps and there is no best time; it shows the production log reads and replays.

${table(ERROR_HEADER, errorRows(tally, 'validation', [POOLED], ['all']))}
`);
  printCellsNote();
}

/** `--outages`: the reopen odds over Walt Disney World's four parks, each split in time. */
function outages(): void {
  if (positionals.length > 0 || values.fit) fail('--outages reads the shipped series; give no FILEs nor --fit');
  console.info(
    `${TOURINGPLANS_CREDIT} ${SHIPPED_SERIES.length} rides in Walt Disney World's four parks${
      hours ? `; park hours: TouringPlans.com, ${values.hours} (the window with Extra Magic Hours)` : ''
    }.\nPark days in time order (a day starts at 04:00, ${WDW_TIME_ZONE}): training = the first ${percent(trainShare)}, validation = the rest.\n`,
  );
  const parks = WDW_PARKS.map((code) => {
    const files = SHIPPED_SERIES.filter((series) => series.park === code);
    const { rides } = loadCsvPark(files.map(({ file, ride }) => ({ path: path.join(SHIPPED_DIR, file), ride })));
    return { code, name: PARK_NAMES[code], timeZone: WDW_TIME_ZONE, rides, hours: hours?.[code] };
  });
  reportOutages(parks, trainShare, (line) => console.info(line));
}

/** FILEs as one park, split in time. */
async function onePark(files: readonly string[]): Promise<void> {
  const csv = files.filter((file) => file.endsWith('.csv'));
  if (csv.length > 0 && csv.length < files.length) fail('give TouringPlans CSV files or day logs, not both');
  const park: ParkSeries =
    csv.length === 0
      ? parkOfDayLog(files.flatMap((file) => parseDayLog(readOrFail(file))))
      : loadCsvPark(
          csv.map((file) => ({ path: file, ride: shippedSeriesOf(file)?.ride ?? path.basename(file, '.csv') })),
        );
  const code = hours && parkCodeOf(files);
  const parkHours = code ? hours?.[code] : undefined;
  const horizons = values.fit ? [60, 120, 240, 360] : HORIZONS;
  const run = await replay(park, { timeZone, trainShare, horizons, fitOnly: values.fit, hours: parkHours });
  // GET /api/wait-times/days's CSV is queue-times data in TouringPlans' columns: its first line credits it.
  const fromQueueTimes =
    csv.length === 0 || csv.every((file) => readOrFail(file).startsWith('# Powered by Queue-Times.com'));
  console.info(fromQueueTimes ? QUEUE_TIMES_CREDIT : TOURINGPLANS_CREDIT);
  if (code) console.info(`Park hours: TouringPlans.com, ${PARK_NAMES[code]}, the window with Extra Magic Hours.`);
  const { days } = run;
  console.info(`Park days in time order (${timeZone}; a day starts at 04:00): training = the first
${percent(trainShare)}, ${days.training.length} days; validation = the rest, ${days.validation.length} days.\n`);
  if (values.fit) {
    console.info('BLEND by least absolute deviations on the training days (rows 0 and 30 stay as they are):');
    for (const [horizon, rows] of run.fitRows) {
      const [chained, usual] = fitLad(rows);
      console.info(
        `  { horizon: ${horizon}, chained: ${chained}, usual: ${usual}, sharpen: 0 }, // ${rows.length} rows`,
      );
    }
  } else {
    const label = parkHours ? ', with the published hours' : '';
    console.info(splitReport(run.tally, 'validation', `VALIDATION (never tuned on)${label}`, days.validation));
    console.info(splitReport(run.tally, 'training', `Training${label}`, days.training));
    printCellsNote();
  }
  console.info(`${park.rides.length} rides; ${park.samples.length} park samples replayed.`);
}

function printCellsNote(): void {
  console.info(`Cells: ours ÷ persistence (MAE ours / persistence / usual day, minutes). Best time: the
advice as the widget gives it (bestTime, or now when as short) against the rest-of-day mean; a best
time after the ride's last wait of the day counts as no gain (docs/wait-times.md, "Forecasting").`);
}

function loadCsvPark(files: readonly { path: string; ride: string }[]): ParkSeries {
  try {
    const { park, skipped } = parkOfPostedWaits(files, timeZone);
    for (const { path: file, rows } of skipped) console.info(`${file}: ${rows} unreadable rows skipped.`);
    return park;
  } catch (error) {
    fail((error as Error).message);
  }
}

function readHours(file: string): ParkHoursTable {
  try {
    const { hours: table, skipped } = parseParkHours(readOrFail(file), WDW_TIME_ZONE);
    if (skipped > 0) console.info(`${file}: ${skipped} park days without readable hours left out.`);
    return table;
  } catch (error) {
    fail(`--hours ${file}: ${(error as Error).message}`);
  }
}

/** `--park`, or the park of shipped files; the hours are per park. */
function parkCodeOf(files: readonly string[]): WdwPark {
  const named = values.park?.toUpperCase();
  if (named !== undefined) {
    if (!WDW_PARKS.includes(named as WdwPark)) fail(`--park must be one of ${WDW_PARKS.join(', ')}`);
    return named as WdwPark;
  }
  const codes = new Set(files.map((file) => shippedSeriesOf(file)?.park));
  const [code] = codes;
  if (codes.size !== 1 || code === undefined)
    fail(`--hours needs the park of these files: --park ${WDW_PARKS.join('|')}`);
  return code;
}

function readOrFail(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function fail(message: string): never {
  console.error(`backtest: ${message}`);
  process.exit(1);
}
