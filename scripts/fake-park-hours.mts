import { DAY_MS, MINUTE_MS, MINUTES_PER_HOUR } from '../src/platform/time-units.ts';
import { fromWallClock, localDateOf, offsetAt, previousDate } from '../src/wait-times/local-time.ts';
import type { Park } from '../src/wait-times/parks.ts';
import { readFixture } from './fake-http-server.mts';

// ThemeParks.wiki schedules for the local fake (scripts/fake-queue-times.mts serves them): Magic
// Kingdom's recorded capture re-dated to today, and SYNTHETIC days for the other parks, built here
// after the row shapes the provider's collectors publish (fixtures/themeparks-wiki/SOURCES.md).

export const MAGIC_KINGDOM_CAPTURE =
  'themeparks-wiki/themeparks-wiki_schedule_magic-kingdom_2026-04-15_themeparks-js.json';

export interface UpstreamRow {
  date: string;
  type: string;
  openingTime: string;
  closingTime: string;
  description?: string;
}
export interface UpstreamSchedule {
  id: string;
  name: string;
  entityType: 'PARK';
  timezone: string;
  schedule: UpstreamRow[];
  /** Set on every payload built here: says it is not a recording. */
  synthetic?: string;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const pad = (value: number) => String(Math.floor(value)).padStart(2, '0');

/** ISO 8601 with the zone's offset then, as the provider writes it: `time` ("HH:MM") on `date`, plus `days`. */
export function wallTime(date: string, time: string, timeZone: string, days = 0): string {
  const wall = Date.parse(`${addDays(date, days)}T${time}:00Z`);
  const offset = offsetAt(fromWallClock(wall, timeZone), timeZone) / MINUTE_MS;
  const sign = offset < 0 ? '-' : '+';
  const [hours, minutes] = [Math.abs(offset) / MINUTES_PER_HOUR, Math.abs(offset) % MINUTES_PER_HOUR];
  return `${new Date(wall).toISOString().slice(0, 19)}${sign}${pad(hours)}:${pad(minutes)}`;
}

/** A SYNTHETIC row: `closes` "HH:MM", or "HH:MM+1" on the next calendar day. */
export function row(date: string, type: string, opens: string, closes: string, timeZone: string, description?: string) {
  const [closeTime = closes, nextDay] = closes.split('+');
  return {
    date,
    type,
    openingTime: wallTime(date, opens, timeZone),
    closingTime: wallTime(date, closeTime, timeZone, Number(nextDay ?? 0)),
    ...(description === undefined ? {} : { description }),
  };
}

/** The SYNTHETIC days the tests name and the demo shows, as rows of one park-local date. */
export const SYNTHETIC_DAYS = {
  normal: (date: string, zone: string) => [row(date, 'OPERATING', '09:00', '21:00', zone)],
  short: (date: string, zone: string) => [row(date, 'OPERATING', '09:00', '17:30', zone)],
  /** Open around the clock: a park the smoke's recorder run finds open whatever the hour. */
  allDay: (date: string, zone: string) => [row(date, 'OPERATING', '00:00', '00:00+1', zone)],
  extendedEvening: (date: string, zone: string) => [
    row(date, 'TICKETED_EVENT', '07:30', '08:00', zone, 'Early Entry'),
    row(date, 'OPERATING', '08:00', '23:00', zone),
    row(date, 'TICKETED_EVENT', '23:00', '01:00+1', zone, 'Extended Evening'),
  ],
  pastMidnight: (date: string, zone: string) => [row(date, 'OPERATING', '10:00', '01:00+1', zone)],
  earlyEntry: (date: string, zone: string) => [
    row(date, 'EXTRA_HOURS', '08:00', '09:00', zone, 'Early Park Admission'),
    row(date, 'OPERATING', '09:00', '21:00', zone),
  ],
  halloweenHorrorNights: (date: string, zone: string) => [
    row(date, 'OPERATING', '09:00', '18:00', zone),
    row(date, 'TICKETED_EVENT', '19:00', '02:00+1', zone, 'Halloween Horror Nights'),
  ],
  twoBlocks: (date: string, zone: string) => [
    row(date, 'OPERATING', '10:00', '18:00', zone),
    row(date, 'OPERATING', '19:00', '22:00', zone),
  ],
  // A past-midnight closing written on the opening's date, as some collectors did: closes before it opens.
  closingBeforeOpening: (date: string, zone: string) => [
    row(date, 'OPERATING', '09:00', '18:00', zone),
    row(date, 'TICKETED_EVENT', '19:00', '01:00', zone, 'Traumatica'),
  ],
} satisfies Record<string, (date: string, timeZone: string) => UpstreamRow[]>;
export type SyntheticDay = keyof typeof SYNTHETIC_DAYS;

/** Which SYNTHETIC day each park shows in the demo (Magic Kingdom serves its recording instead). */
const DEMO_DAYS: Readonly<Record<string, SyntheticDay>> = {
  alphaland: 'extendedEvening',
  'alphaland-paris': 'pastMidnight',
  'beta-studios-hollywood': 'halloweenHorrorNights',
  'gammaworld-orlando': 'twoBlocks',
  'islands-of-adventure': 'earlyEntry',
  'epic-universe': 'earlyEntry',
  epsilonpark: 'closingBeforeOpening',
  zetawood: 'short',
  'volcano-bay': 'short',
};

/** A SYNTHETIC schedule: `day` (the park's demo day unless given) from yesterday through 6 days ahead. */
export function syntheticSchedule(park: Park, today: string, day?: SyntheticDay): UpstreamSchedule {
  const build = SYNTHETIC_DAYS[day ?? DEMO_DAYS[park.slug] ?? 'normal'];
  const dates = [previousDate(today), ...Array.from({ length: 7 }, (_, index) => addDays(today, index))];
  return {
    id: park.themeParksWikiId,
    name: park.name,
    entityType: 'PARK',
    timezone: park.timezone,
    schedule: dates.flatMap((date) => build(date, park.timezone)),
    synthetic: 'built by scripts/fake-park-hours.mts, not recorded',
  };
}

/**
 * The recorded Magic Kingdom capture moved by whole days so that its first date is `today`: each
 * row keeps its wall-clock times (its offset follows the new date), fields and order.
 */
export function redatedSchedule(today: string): UpstreamSchedule {
  const recorded = JSON.parse(readFixture(MAGIC_KINGDOM_CAPTURE)) as UpstreamSchedule;
  const first = recorded.schedule[0]?.date ?? today;
  const shift = Math.round((Date.parse(today) - Date.parse(first)) / DAY_MS);
  const move = (iso: string) => wallTime(iso.slice(0, 10), iso.slice(11, 16), recorded.timezone, shift);
  const schedule = recorded.schedule.map((entry) => ({
    ...entry,
    date: addDays(entry.date, shift),
    openingTime: move(entry.openingTime),
    closingTime: move(entry.closingTime),
  }));
  return { ...recorded, schedule };
}

/** What the fake serves for a park at `now`: the re-dated recording for Magic Kingdom, else its SYNTHETIC days. */
export function fakeScheduleOf(park: Park, now: number): UpstreamSchedule {
  const today = localDateOf(now, park.timezone);
  return park.slug === 'magic-kingdom' ? redatedSchedule(today) : syntheticSchedule(park, today);
}
