import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fromWallClock } from '../src/wait-times/local-time.ts';
import { parsePostedWaits } from './backtest/posted-waits.ts';
import { type CallScore, type ReplayResult, replay } from './backtest/replay.ts';

/**
 * `npm run backtest [-- FILE.csv …] [--learn-share 0.7] [--timezone America/New_York]`
 *
 * Replays real posted-wait series through the service's own history, profile and forecast code
 * (scripts/backtest/replay.ts) and prints, per ride, the 30-minute-ahead error of persistence,
 * linear extrapolation and our forecast, and how often `trend` called the next half hour right.
 * Without files it evaluates the TouringPlans.com series shipped in ../shared/data/touringplans/.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const SHIPPED = path.resolve(ROOT, '../shared/data/touringplans');
const KNOWN_RIDES: Readonly<Record<string, string>> = {
  'AK85.csv': "Na'vi River Journey (AK85)",
  'AK86.csv': 'Avatar Flight of Passage (AK86)',
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'learn-share': { type: 'string', default: '0.7' },
    timezone: { type: 'string', default: 'America/New_York' },
  },
});
const learnShare = Number(values['learn-share']);
const timeZone = values.timezone;
if (!(learnShare >= 0 && learnShare < 1)) fail('--learn-share must be a number from 0 to below 1');
try {
  new Intl.DateTimeFormat('en-US', { timeZone });
} catch {
  fail(`--timezone ${timeZone} is not an IANA time zone`);
}
const files = positionals.length > 0 ? positionals : ['AK85.csv', 'AK86.csv'].map((name) => path.join(SHIPPED, name));

const started = performance.now();
const results: { name: string; result: ReplayResult; skipped: number }[] = [];
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  let series: ReturnType<typeof parsePostedWaits>;
  try {
    series = parsePostedWaits(text, (wall) => fromWallClock(wall, timeZone));
  } catch (error) {
    fail(`${file}: ${(error as Error).message}`);
  }
  const name = KNOWN_RIDES[path.basename(file)] ?? path.basename(file);
  results.push({ name, result: await replay(series.samples, { timeZone, learnShare }), skipped: series.skipped });
}
const seconds = (performance.now() - started) / 1000;

const minutes = (value: number) => value.toFixed(2);
const share = (value: number) => `${(value * 100).toFixed(1)} %`;
const rate = ({ calls, moved, hits }: CallScore) =>
  calls === 0
    ? 'n/a'
    : `${share(hits / calls)} of ${calls} (${share(hits / Math.max(1, moved))} of the ${moved} that moved)`;
const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

if (positionals.length === 0) {
  console.info(
    "Wait-time data from TouringPlans.com (https://touringplans.com/): Disney's Animal Kingdom posted waits.",
  );
}
console.info(`30-minute-ahead forecasts of posted waits, replayed through the service's own history, profile,
trend and forecast code with the clock driven by the data. Scored only on the days after the
learning days (the first ${share(learnShare)} of park days); time zone ${timeZone}.
`);
console.info(
  table(
    ['Ride', 'Learn days', 'Test days', 'Scored', 'MAE persistence', 'MAE linear', 'MAE ours', 'Ours vs persistence'],
    results.map(({ name, result }) => [
      name,
      `${result.learnDays.count} (${result.learnDays.first ?? '–'} … ${result.learnDays.last ?? '–'})`,
      `${result.testDays.count} (${result.testDays.first ?? '–'} … ${result.testDays.last ?? '–'})`,
      String(result.scored),
      minutes(result.persistence.mae),
      minutes(result.linear.mae),
      minutes(result.ours.mae),
      `${((result.ours.mae / result.persistence.mae - 1) * 100).toFixed(1)} %`,
    ]),
  ),
);
console.info('');
console.info(
  table(
    [
      'Ride',
      'Within 5 min (pers. / ours)',
      'Within 10 min (pers. / ours)',
      'Trend up right',
      'Trend down right',
      'Trend flat',
    ],
    results.map(({ name, result }) => [
      name,
      `${share(result.persistence.within5)} / ${share(result.ours.within5)}`,
      `${share(result.persistence.within10)} / ${share(result.ours.within10)}`,
      rate(result.trend.up),
      rate(result.trend.down),
      String(result.trend.flat),
    ]),
  ),
);
console.info('');
console.info(
  table(
    ['Ride', 'Forecast above wait, rose', 'Forecast below wait, fell'],
    results.map(({ name, result }) => [name, rate(result.forecastDirection.up), rate(result.forecastDirection.down)]),
  ),
);
console.info(`
"Right" means the posted wait 30 minutes later moved the called way; a change of 0 counts as a miss
(the share in brackets leaves those out).
Linear extrapolates the change since the trend's comparison sample (20–45 minutes earlier).`);
for (const { name, result, skipped } of results) {
  console.info(
    `${name}: ${result.samples} samples${skipped ? `, ${skipped} unreadable rows skipped` : ''}; profile record ${result.profileBytes} bytes.`,
  );
}
console.info(`Ran in ${seconds.toFixed(1)} s.`);

function fail(message: string): never {
  console.error(`backtest: ${message}`);
  process.exit(1);
}
