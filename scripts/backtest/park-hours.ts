import { MINUTE_MS, MINUTES_PER_HOUR } from '../../src/platform/time-units.ts';
import type { DayHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { fromWallClock } from '../../src/wait-times/local-time.ts';
import { cellsOf } from './posted-waits.ts';

/**
 * The hours Walt Disney World published for each park day, from TouringPlans.com's metadata CSV
 * (`touringplans_metadata.csv`, one row per park day, 181 columns found by name). The window read
 * is the one including Extra Magic Hours, `xxEMHOPEN`–`xxEMHCLOSE`: the rides post waits through
 * them (docs/wait-times.md, "Forecasting"); on days without them it equals `xxOPEN`–`xxCLOSE`.
 * On a ticketed party's evening the file puts the party in `xxEMHCLOSE` too, but the park closed to
 * day guests at `xxCLOSE`, and ThemeParks.wiki lists the party as a `TICKETED_EVENT` beside the
 * day: production's day ends at `xxCLOSE`, and so does the backtest's.
 */

/** `xxeventN` codes of ticketed evening parties: Mickey's Not-So-Scary Halloween Party, Mickey's Very Merry Christmas Party. */
const TICKETED_PARTIES = ['mnsshp', 'mvmcp'];

/** The four parks by TouringPlans' column prefixes: Magic Kingdom, EPCOT, Hollywood Studios, Animal Kingdom. */
export const WDW_PARKS = ['MK', 'EP', 'HS', 'AK'] as const;
export type WdwPark = (typeof WDW_PARKS)[number];

/** Each park's hours by park day (`YYYY-MM-DD`, the file's `DATE`), Unix ms. */
export type ParkHoursTable = Record<WdwPark, Map<string, DayHours>>;

/** `MM/DD/YYYY`. */
const PARK_DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;
/** `H:MM` on a clock that runs past midnight: `25:00` is 01:00 the next morning. */
const CLOCK = /^(\d{1,2}):([0-5]\d)$/;

/**
 * The EMH-inclusive window of every park on every row, in `timeZone` (Walt Disney World keeps
 * America/New_York), and how many park days were left out: a time missing or unreadable, or a
 * closing not after the opening.
 */
export function parseParkHours(text: string, timeZone: string): { hours: ParkHoursTable; skipped: number } {
  const [header = [], ...rows] = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(cellsOf);
  const column = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`expected a "${name}" column (TouringPlans.com park metadata)`);
    return index;
  };
  const dateColumn = column('DATE');
  const windows = WDW_PARKS.map((park) => ({
    park,
    open: column(`${park}EMHOPEN`),
    close: column(`${park}EMHCLOSE`),
    regularClose: column(`${park}CLOSE`),
    events: column(`${park}eventN`),
  }));
  const hours: ParkHoursTable = { MK: new Map(), EP: new Map(), HS: new Map(), AK: new Map() };
  let skipped = 0;
  for (const cells of rows) {
    const date = isoDateOf(cells[dateColumn] ?? '');
    for (const { park, open, close, regularClose, events } of windows) {
      const party = (cells[events] ?? '').split('|').some((event) => TICKETED_PARTIES.includes(event));
      const opensAt = date && unixOf(date, cells[open] ?? '', timeZone);
      const closesAt = date && unixOf(date, cells[party ? regularClose : close] ?? '', timeZone);
      if (date && opensAt && closesAt && closesAt > opensAt) hours[park].set(date, { opensAt, closesAt });
      else skipped++;
    }
  }
  return { hours, skipped };
}

/** `MM/DD/YYYY` as `YYYY-MM-DD`, or undefined when it is not a real date. */
function isoDateOf(text: string): string | undefined {
  const [, month, day, year] = PARK_DAY.exec(text.trim()) ?? [];
  const iso = `${year}-${month}-${day}`;
  return month && !Number.isNaN(Date.parse(iso)) && new Date(iso).toISOString().startsWith(iso) ? iso : undefined;
}

/** Unix ms of a clock reading on a park day; hours from 24 on fall on the next calendar day. */
function unixOf(date: string, clock: string, timeZone: string): number | undefined {
  const [, hours, minutes] = CLOCK.exec(clock.trim()) ?? [];
  if (hours === undefined || Number(hours) >= 30) return undefined;
  return fromWallClock(
    Date.parse(`${date}T00:00:00Z`) + (Number(hours) * MINUTES_PER_HOUR + Number(minutes)) * MINUTE_MS,
    timeZone,
  );
}
