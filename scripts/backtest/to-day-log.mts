import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toDayLog } from './day-log.ts';

/**
 * `node scripts/backtest/to-day-log.mts --timezone Europe/Berlin waits.csv > park.jsonl`
 *
 * Writes the queue-times sample log `npm run backtest` reads (one production day record per
 * line) from a CSV of queue-times waits, one row per ride and fetch: columns `timestamp` (ISO
 * with an offset, or the park's wall clock in `--timezone`), `ride_id`, `ride_name`, `is_open`,
 * `wait_time` (day-log.ts).
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
