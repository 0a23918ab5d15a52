import { MINUTE_MS, MINUTES_PER_HOUR } from '../platform/time-units.ts';
import type { ParkHours } from '../wait-times/hours/park-hours-schemas.ts';

// The park's hours in one line ("Open 09:00–22:00 · closes in 1 h 20 min"), from `hours` of
// GET /api/wait-times/history. ThemeParks.wiki lists no closed days: unknown hours say nothing.

/** What the line shows (`text`) and what a screen reader hears instead (`spoken`). */
export type HoursLine = { state: 'before' | 'open' | 'closed'; text: string; spoken: string };

/** The reader's time zone and locale (undefined: the browser's own, and its 12- or 24-hour style). */
export type Reader = { timeZone: string; locale?: string | undefined };

const dateIn = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** A time of day in `timeZone`, in the reader's style ("09:00", "9:00 AM"). */
export const clockIn = (at: number, timeZone: string, locale?: string) =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(at);

/** The same instant reads differently on the reader's clock than on the park's. */
const differs = (at: number, park: string, reader: string) =>
  `${dateIn(at, park)} ${clockIn(at, park, 'en-GB')}` !== `${dateIn(at, reader)} ${clockIn(at, reader, 'en-GB')}`;

/** A time span, rounded up to the minute: ["1 h 20 min", "1 hour 20 minutes"]. */
export function spanOf(ms: number): [string, string] {
  const total = Math.max(1, Math.ceil(ms / MINUTE_MS));
  const [hours, minutes] = [Math.floor(total / MINUTES_PER_HOUR), total % MINUTES_PER_HOUR];
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const short = [hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean).join(' ');
  const long = [hours && plural(hours, 'hour'), minutes && plural(minutes, 'minute')].filter(Boolean).join(' ');
  return [short, long];
}

/**
 * The line for the park's public day `hours` at `now`, its times on the park's clock (`timeZone`),
 * saying "park time" when the reader's clock reads otherwise: "Opens at 09:00" before opening,
 * "Open 09:00–22:00 · closes in 1 h 20 min" while open, "Closed for today · was open 09:00–22:00"
 * after closing on the same park-local date. Null when unknown, and when the hours are of an
 * earlier date than now's (a copy from before midnight, or a day closed after midnight): today's
 * hours are not known yet then.
 */
export function hoursLine(hours: ParkHours | null, now: number, timeZone: string, reader: Reader): HoursLine | null {
  if (!hours) return null;
  const { opensAt, closesAt } = hours;
  const today = dateIn(now, timeZone) === dateIn(opensAt, timeZone);
  const where = [now, opensAt, closesAt].some((at) => differs(at, timeZone, reader.timeZone)) ? ' park time' : '';
  const [opens, closes] = [opensAt, closesAt].map((at) => clockIn(at, timeZone, reader.locale));
  if (now >= opensAt && now < closesAt) {
    const [short, long] = spanOf(closesAt - now);
    return {
      state: 'open',
      text: `Open ${opens}–${closes}${where} · closes in ${short}`,
      spoken: `Open from ${opens} to ${closes}${where}, closes in ${long}.`,
    };
  }
  if (!today) return null;
  if (now < opensAt)
    return { state: 'before', text: `Opens at ${opens}${where}`, spoken: `Opens at ${opens}${where}.` };
  return {
    state: 'closed',
    text: `Closed for today · was open ${opens}–${closes}${where}`,
    spoken: `Closed for today; it was open from ${opens} to ${closes}${where}.`,
  };
}
