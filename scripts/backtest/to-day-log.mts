import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toDayLog } from './day-log.ts';

/**
 * `node scripts/backtest/to-day-log.mts --timezone Europe/Berlin waits.csv > park.jsonl`: the day
 * log `npm run backtest` reads, from a CSV of queue-times waits (columns: day-log.ts, `toDayLog`).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { timezone: { type: 'string' } },
});
const [file] = positionals;
if (!file || !values.timezone || positionals.length > 1) {
  console.error('usage: node scripts/backtest/to-day-log.mts --timezone ZONE waits.csv > park.jsonl');
  process.exit(1);
}
try {
  process.stdout.write(toDayLog(readFileSync(file, 'utf8'), values.timezone));
} catch (error) {
  console.error(`to-day-log: ${(error as Error).message}`);
  process.exit(1);
}
