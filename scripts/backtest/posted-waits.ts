import type { HistorySample } from '../../src/wait-times/park-snapshot-schemas.ts';

/**
 * Reads posted-wait series in TouringPlans' published CSV format: a header row, then one row per
 * observation. Columns are found by name (their order differs between TouringPlans releases):
 * `datetime` is the park's local wall-clock time (`YYYY-MM-DD HH:MM[:SS]`), `SPOSTMIN` the posted
 * wait in minutes, `-999` meaning the ride is down. Rows without `SPOSTMIN` (actual-wait rows)
 * are skipped. Data: TouringPlans.com (credit in fixtures/touringplans/CREDIT.md).
 */

/** A posted wait as the service would have sampled it. */
export interface PostedSample {
  /** Unix ms. */
  at: number;
  /** The park day (`YYYY-MM-DD`); times before 04:00 belong to the day before. */
  day: string;
  /** Minutes, or null when the ride was down. */
  wait: number | null;
}

export interface PostedSeries {
  samples: PostedSample[];
  /** Rows that had a posted value but could not be read (bad time or number). */
  skipped: number;
}

/** The posted value meaning "ride unexpectedly offline". */
export const DOWN = -999;
const DAY_STARTS_AT_HOUR = 4;
const HOUR = 3_600_000;
const GRID_MS = 5 * 60_000;
const STILL_POSTED_MS = 15 * 60_000;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Parses a CSV text. `toUnix` turns a wall-clock reading (given as if it were UTC) into Unix ms;
 * pass `(wall) => fromWallClock(wall, timeZone)`. Samples come out in time order, one per
 * timestamp (the last row wins when several share one).
 */
export function parsePostedWaits(text: string, toUnix: (wall: number) => number): PostedSeries {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines[0] ?? '').split(',').map(unquote);
  const timeColumn = header.indexOf('datetime');
  const waitColumn = header.indexOf('SPOSTMIN');
  if (timeColumn < 0 || waitColumn < 0) {
    throw new Error(`expected a header with "datetime" and "SPOSTMIN" columns, got: ${header.join(',')}`);
  }
  const byTime = new Map<number, PostedSample>();
  let skipped = 0;
  for (const line of lines.slice(1)) {
    const cells = line.split(',').map(unquote);
    const posted = cells[waitColumn] ?? '';
    if (posted === '') continue;
    const wall = wallClockOf(cells[timeColumn] ?? '');
    const minutes = Number(posted);
    if (wall === undefined || !Number.isFinite(minutes) || (minutes < 0 && minutes !== DOWN)) {
      skipped++;
      continue;
    }
    const at = toUnix(wall);
    const day = new Date(wall - DAY_STARTS_AT_HOUR * HOUR).toISOString().slice(0, 10);
    byTime.set(at, { at, day, wait: minutes === DOWN ? null : Math.round(minutes) });
  }
  const samples = [...byTime.values()].sort((a, b) => a.at - b.at);
  return { samples, skipped };
}

/** A `YYYY-MM-DD HH:MM[:SS]` reading as if it were UTC, or undefined when it is not a valid one. */
function wallClockOf(text: string): number | undefined {
  const match = DATETIME.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = Date.UTC(year ?? 0, (month ?? 0) - 1, day, hour, minute, second);
  // Date.UTC rolls 2019-02-30 over into March; a reading that does not survive the round trip is invalid.
  const back = new Date(wall);
  const valid =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === (month ?? 0) - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute;
  return valid ? wall : undefined;
}

function unquote(cell: string): string {
  const trimmed = cell.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/**
 * The park as the service would have sampled it: every 5 minutes of UTC time, each ride's last
 * posted wait if at most 15 minutes old (rides without one are not listed; times with none at all
 * are skipped). TouringPlans' rows come every ~7 minutes, ride by ride.
 */
export function gridSamples(
  rides: readonly { id: string; samples: readonly Pick<PostedSample, 'at' | 'wait'>[] }[],
): HistorySample[] {
  const first = Math.min(...rides.map((ride) => ride.samples[0]?.at ?? Number.POSITIVE_INFINITY));
  const last = Math.max(...rides.map((ride) => ride.samples.at(-1)?.at ?? Number.NEGATIVE_INFINITY));
  const cursors = rides.map(() => 0);
  const samples: HistorySample[] = [];
  for (let at = Math.ceil(first / GRID_MS) * GRID_MS; at <= last; at += GRID_MS) {
    const waits: Record<string, number | null> = {};
    rides.forEach(({ id, samples: rows }, index) => {
      let cursor = cursors[index] ?? 0;
      while ((rows[cursor + 1]?.at ?? Number.POSITIVE_INFINITY) <= at) cursor++;
      cursors[index] = cursor;
      const row = rows[cursor];
      if (row && row.at <= at && at - row.at <= STILL_POSTED_MS) waits[id] = row.wait;
    });
    if (Object.keys(waits).length > 0) samples.push({ at, waits });
  }
  return samples;
}
