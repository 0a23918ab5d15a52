import { HOUR_MS } from '../../src/platform/time-units.ts';

/**
 * TouringPlans.com's posted-wait CSV (credit: fixtures/touringplans/CREDIT.md), columns found by
 * name as their order varies: `datetime` local wall clock and the posted minutes (-999: down), named
 * `SPOSTMIN` in the per-park releases (AK85.csv) and `wait_time(posted)` in the 2018 cut (`25.0`).
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

/** The posted value meaning "ride unexpectedly offline". */
const DOWN = -999;
const DAY_STARTS_AT_HOUR = 4;
const POSTED_COLUMNS = ['SPOSTMIN', 'wait_time(posted)'];
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The samples of a CSV text in time order, one per timestamp (the last row wins), and how many rows
 * with a posted value could not be read. `toUnix` turns a wall-clock reading (as if UTC) into Unix ms.
 */
export function parsePostedWaits(
  text: string,
  toUnix: (wall: number) => number,
): { samples: PostedSample[]; skipped: number } {
  const lines = linesOf(text);
  const header = cellsOf(lines[0] ?? '');
  const timeColumn = header.indexOf('datetime');
  const waitColumn = header.findIndex((name) => POSTED_COLUMNS.includes(name));
  if (timeColumn < 0 || waitColumn < 0) {
    const posted = POSTED_COLUMNS.map((name) => `"${name}"`).join(' or ');
    throw new Error(`expected a header with "datetime" and ${posted} columns, got: ${header.join(',')}`);
  }
  const byTime = new Map<number, PostedSample>();
  let skipped = 0;
  for (const line of lines.slice(1)) {
    const cells = cellsOf(line);
    const posted = cells[waitColumn] ?? '';
    if (posted === '') continue;
    const wall = wallClockOf(cells[timeColumn] ?? '');
    const minutes = Number(posted);
    if (wall === undefined || !Number.isFinite(minutes) || (minutes < 0 && minutes !== DOWN)) {
      skipped++;
      continue;
    }
    const at = toUnix(wall);
    const day = new Date(wall - DAY_STARTS_AT_HOUR * HOUR_MS).toISOString().slice(0, 10);
    byTime.set(at, { at, day, wait: minutes === DOWN ? null : Math.round(minutes) });
  }
  const samples = [...byTime.values()].sort((a, b) => a.at - b.at);
  return { samples, skipped };
}

/** A CSV text's lines, without blank lines and comment lines (`#`, as the credit of GET /api/wait-times/days). */
function linesOf(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/**
 * A long CSV of many rides (a `ride_id` column, as GET /api/wait-times/days answers) as one CSV text
 * per ride, named by `ride_name` when there is one; a CSV without `ride_id` is one ride, `undefined`.
 */
export function splitByRide(text: string): { id: string; name: string; text: string }[] | undefined {
  const [head = '', ...rows] = linesOf(text);
  const header = cellsOf(head);
  const [idColumn, nameColumn] = [header.indexOf('ride_id'), header.indexOf('ride_name')];
  if (idColumn < 0) return undefined;
  const rides = new Map<string, { id: string; name: string; lines: string[] }>();
  for (const row of rows) {
    const cells = cellsOf(row);
    const id = cells[idColumn] ?? '';
    const ride = rides.get(id) ?? { id, name: (nameColumn < 0 ? undefined : cells[nameColumn]) || id, lines: [head] };
    ride.lines.push(row);
    rides.set(id, ride);
  }
  return [...rides.values()].map(({ id, name, lines }) => ({ id, name, text: lines.join('\n') }));
}

/** A `YYYY-MM-DD HH:MM[:SS]` reading as if it were UTC, or undefined when it is not a valid one. */
function wallClockOf(text: string): number | undefined {
  const [, year, month, day, hour, minute, second = '00'] = DATETIME.exec(text.trim()) ?? [];
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}.000Z`;
  const wall = Date.parse(iso);
  // A date that does not survive the round trip (2019-02-30 rolls over into March) is invalid.
  return Number.isNaN(wall) || new Date(wall).toISOString() !== iso ? undefined : wall;
}

/** One CSV line's cells: quoted cells may hold commas and doubled quotes. */
export function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let [cell, quoted] = ['', false];
  for (let index = 0; index < line.length; index++) {
    const char = line.charAt(index);
    if (char === '"' && quoted && line.charAt(index + 1) === '"') [cell, index] = [`${cell}"`, index + 1];
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) [cells[cells.length], cell] = [cell, ''];
    else cell += char;
  }
  return [...cells, cell];
}
