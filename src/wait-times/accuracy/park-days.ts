import { badRequest, notFound } from '../../platform/errors.ts';
import { readDay } from '../day/day-store.ts';
import type { DayRecord } from '../day/history-schemas.ts';
import { dayBoundsOf, offsetAt } from '../local-time.ts';
import { byName, type Park, parkFromQuery } from '../parks.ts';
import type { ServedDayRecord, ServedForecast } from './accuracy-schemas.ts';
import type { ParkDay } from './park-days-schemas.ts';
import { readServedDay, servedByRide } from './served-store.ts';

/**
 * GET /api/wait-times/days: a finished park day from the day record (day-store.ts) and the archive
 * of what was served (served-store.ts), both kept 400 days, as JSON or as one long CSV in
 * TouringPlans.com's columns, which `npm run backtest` reads (docs/accuracy.md, "The data behind the score").
 */

export const DAYS_CREDIT = 'Powered by Queue-Times.com (https://queue-times.com/)';
/** TouringPlans.com's posted value for "closed" (the backtest reads it as down). */
export const CLOSED = -999;
export const CSV_COLUMNS = ['ride_id', 'ride_name', 'date', 'datetime', 'SPOSTMIN', 'forecast'] as const;
/** A finished day never changes: browsers and the CDN keep it a day (and no longer: days go after 400). */
export const FINISHED_DAY_MAX_AGE_SECONDS = 86_400;

export type DaysFormat = 'json' | 'csv';

/** The park, date and format asked for: 400 for a missing or malformed date or format, 404 for an unknown park. */
export function daysQueryOf(params: URLSearchParams): { park: Park; date: string; format: DaysFormat } {
  const park = parkFromQuery(params.get('park'));
  const date = params.get('date');
  if (date === null || date === '') throw badRequest('missing date (YYYY-MM-DD)');
  if (!isDate(date)) throw badRequest(`malformed date ${JSON.stringify(date)}: expected YYYY-MM-DD`);
  const format = params.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') {
    throw badRequest(`unknown format ${JSON.stringify(format)}: expected json or csv`);
  }
  return { park, date, format };
}

/** A real calendar date as YYYY-MM-DD (2026-02-30 is not one). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
}

/** The finished day of a park: 404 while it has not ended in the park's time zone, or when it is not kept. */
export async function getParkDay(park: Park, date: string, now = Date.now()): Promise<ParkDay> {
  if (dayBoundsOf(date, park.timezone).endsAt > now) throw notFound(`day not finished: ${date} in ${park.timezone}`);
  const [day, served] = await Promise.all([readDay(park.slug, date), readServedDay(park.slug, date)]);
  if (!day) throw notFound(`day not kept: nothing recorded for ${park.slug} on ${date}`);
  return parkDayBody(park, day, served);
}

/** The body of a park day from its records: per ride, the waits and what was served, in named fields. */
export function parkDayBody(
  park: Pick<Park, 'slug' | 'timezone'>,
  day: DayRecord,
  archive: ServedDayRecord | null,
): ParkDay {
  const { startsAt, endsAt } = dayBoundsOf(day.date, park.timezone);
  const served = archive ? servedByRide(archive) : new Map<string, ServedForecast[]>();
  const rides = Object.entries(day.rides).map(([id, ride]) => ({
    id,
    name: ride.name,
    waits: ride.waits,
    served: (served.get(id) ?? []).map((entry) => ({
      at: entry.at,
      wait: entry.wait,
      forecast: entry.forecasts[30],
      expected60: entry.forecasts[60],
      expected120: entry.forecasts[120],
      usual30: entry.usual[30],
      usual60: entry.usual[60],
      usual120: entry.usual[120],
      bestTime: entry.bestTime,
    })),
  }));
  return {
    park: park.slug as ParkDay['park'],
    date: day.date,
    timeZone: park.timezone,
    dayStartsAt: startsAt,
    dayEndsAt: endsAt,
    source: 'queue-times.com',
    times: day.times,
    rides: rides.sort(byName),
  };
}

/**
 * The day as one long CSV in TouringPlans.com's columns: a `#` line with the credit, the header, then
 * one row per ride and sample (rides by name, samples in time order). `date` is the local `MM/DD/YYYY`,
 * `datetime` the local `YYYY-MM-DD HH:MM:SS`, `SPOSTMIN` the posted minutes or -999 while closed, and
 * `forecast` the 30-minute forecast served at that time, empty when none was.
 */
export function parkDayCsv(day: ParkDay, parkName: string): string {
  const [year, month, dayOfMonth] = day.date.split('-');
  const usDate = `${month}/${dayOfMonth}/${year}`;
  const lines = [
    `# ${DAYS_CREDIT}. ${parkName}, ${day.date}, local times in ${day.timeZone}; SPOSTMIN -999: closed; forecast: the 30-minute forecast served then.`,
    CSV_COLUMNS.join(','),
  ];
  for (const ride of day.rides) {
    const forecastAt = new Map(ride.served.map((entry) => [entry.at, entry.forecast]));
    const [id, name] = [csvCell(ride.id), csvCell(ride.name)];
    day.times.forEach((at, index) => {
      const wait = ride.waits[index] ?? null;
      const forecast = forecastAt.get(at);
      const row = [id, name, usDate, wallClockOf(at, day.timeZone), wait ?? CLOSED, forecast ?? ''];
      lines.push(row.join(','));
    });
  }
  return `${lines.join('\n')}\n`;
}

/** `YYYY-MM-DD HH:MM:SS` on the zone's wall clock. */
function wallClockOf(at: number, timeZone: string): string {
  return new Date(at + offsetAt(at, timeZone)).toISOString().slice(0, 19).replace('T', ' ');
}

/** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
