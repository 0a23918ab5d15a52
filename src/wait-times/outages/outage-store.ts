import { deleteRecords, listKeys, readRecord, writeRecord } from '../../platform/store.ts';
import { MINUTE_MS } from '../../platform/time-units.ts';
import { expiredKeys } from '../days-kept.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { dayBoundsOf, daysBefore } from '../local-time.ts';
import { PARKS, type Park } from '../parks.ts';
import type { Duration } from './moment-shares.ts';
import { closedHalfHoursOf, OUTAGE_RULES, outagesOfDay, type SampleSeries, usuallyClosedOf } from './outage-rules.ts';
import {
  type DayOutages,
  DayOutagesSchema,
  dayOutagesKey,
  type Outage,
  type OutageBasis,
  OutageBasisSchema,
  outageBasisKey,
  ReopenTableSchema,
  reopenTableKey,
} from './outage-schemas.ts';
import { ODDS_WINDOW_DAYS, reopenTableOf } from './reopen-odds.ts';

/**
 * The recorder's writes of down rides (docs/outages.md), in the `wait-times` store. Each poll reads
 * 2 records (the day's outages so far, the park's basis) and writes the day's outages when they
 * changed. The first poll of a park's local day also rebuilds, from bounded reads, the basis
 * (`outage-basis/<slug>`: the last 7 recorded days' closed half hours, the last 90 days' outage
 * durations) and the reopen table (`reopen-odds/<slug>`, its pool from every park's basis), closes
 * the day before (an outage still running then is censored at the day's end) and deletes outage
 * records older than `DAYS_KEPT` days, as the day records go.
 */

const prefixOf = (slug: string) => `outages/${slug}/`;

/** The day's outages so far, or null. */
export function readDayOutages(slug: string, date: string): Promise<DayOutages | null> {
  return readRecord('wait-times', dayOutagesKey(slug, date), DayOutagesSchema);
}

const readBasis = (slug: string) => readRecord('wait-times', outageBasisKey(slug), OutageBasisSchema);

/** Reads a recorded day's samples (the recorder's day store; this floor cannot reach it). */
export type ReadDaySamples = (date: string) => Promise<SampleSeries | null>;

export interface OutageInput {
  /** The day as just written, with the newest sample. */
  day: SampleSeries & { date: string };
  hours: DayHours | null;
  /** The newest sample's time. */
  now: number;
  readDay: ReadDaySamples;
}

/**
 * Computes and stores the day's outages after a poll; returns them with the record read before
 * (null on the day's first poll), so that what changed (a ride down, a ride back) can be told.
 */
export async function recordOutages(
  park: Pick<Park, 'slug' | 'timezone'>,
  { day, hours, now, readDay }: OutageInput,
): Promise<{ previous: DayOutages | null; current: DayOutages }> {
  const [previous, stored] = await Promise.all([readDayOutages(park.slug, day.date), readBasis(park.slug)]);
  let failure: Error | null = null;
  // A failed rebuild is tried again next poll; meanwhile the day's outages go on with the basis there is.
  const basis =
    stored?.builtOn === day.date
      ? stored
      : await rebuild(park, { today: day.date, now, stored, readDay }).catch((error: Error) => {
          failure = error;
          return stored ?? { version: 1 as const, builtOn: day.date, closedHalfHours: [], durations: [] };
        });
  const { outages, holds } = outagesOfDay(day, {
    timeZone: park.timezone,
    hours,
    dayEndsAt: dayBoundsOf(day.date, park.timezone).endsAt,
    now,
    usuallyClosed: usuallyClosedOf(basis.closedHalfHours.map(({ rides }) => rides)),
  });
  const dayHours = hours && { opensAt: hours.opensAt, closesAt: hours.closesAt };
  const current: DayOutages = { version: 1, date: day.date, updatedAt: now, outages, holds, hours: dayHours };
  // A running outage's minutes grow each poll; a quiet day is written once (the hours ride along with a change).
  const changed = JSON.stringify([previous?.outages, previous?.holds]) !== JSON.stringify([outages, holds]);
  if (changed) await writeRecord('wait-times', dayOutagesKey(park.slug, day.date), DayOutagesSchema, current);
  if (failure) throw failure;
  return { previous, current };
}

/**
 * An outage still running when its day is over stopped being watched at its last closed sample:
 * the record's last write, since a running outage rewrites it every poll.
 */
function closeDay(record: DayOutages): DayOutages {
  const outages = record.outages.map((outage) =>
    outage.to === null ? { ...outage, to: record.updatedAt, censored: 'day-end' as const } : outage,
  );
  return { ...record, outages };
}

/** The first poll of a local day: the basis and the reopen table rebuilt, the day before closed, old records gone. */
async function rebuild(
  park: Pick<Park, 'slug' | 'timezone'>,
  { today, now, stored, readDay }: { today: string; now: number; stored: OutageBasis | null; readDay: ReadDaySamples },
): Promise<OutageBasis> {
  const keys = await listKeys('wait-times', prefixOf(park.slug));
  const expired = expiredKeys(keys, prefixOf(park.slug), today);
  const dates = keys
    .filter((key) => !expired.includes(key))
    .map((key) => key.slice(prefixOf(park.slug).length))
    .filter((date) => date < today);

  // Scheduled closures: the last recorded days, reading only those the basis lacks (normally yesterday).
  const recent = dates.slice(-OUTAGE_RULES.scheduledDays);
  const known = new Map((stored?.closedHalfHours ?? []).map((entry) => [entry.date, entry.rides]));
  const closedHalfHours = await Promise.all(
    recent.map(async (date) => {
      const rides =
        known.get(date) ??
        (await readDay(date).then(
          (series) => series && closedHalfHoursOf(series, { timeZone: park.timezone, hours: null }),
        ));
      return { date, rides: rides ?? {} };
    }),
  );

  // Durations: the window's days, reading only those the basis lacks; a day found still running is closed.
  const since = daysBefore(today, ODDS_WINDOW_DAYS);
  const had = new Map((stored?.durations ?? []).map((entry) => [entry.date, entry]));
  const durations = await Promise.all(
    dates
      .filter((date) => date >= since)
      .map(async (date) => {
        const kept = had.get(date);
        if (kept) return kept;
        const record = await readDayOutages(park.slug, date);
        const closed = record && closeDay(record);
        if (record && closed && JSON.stringify(closed) !== JSON.stringify(record)) {
          await writeRecord('wait-times', dayOutagesKey(park.slug, date), DayOutagesSchema, closed);
        }
        return { date, ended: [], censored: [], outages: (closed?.outages ?? []).map(pastOutage(closed?.hours)) };
      }),
  );

  const basis: OutageBasis = { version: 1, builtOn: today, closedHalfHours, durations };
  await writeRecord('wait-times', outageBasisKey(park.slug), OutageBasisSchema, basis);
  await writeReopenTable(park.slug, basis, now);
  if (expired.length > 0) await deleteRecords('wait-times', expired);
  return basis;
}

type PastOutage = NonNullable<OutageBasis['durations'][number]['outages']>[number];

/** An outage as the basis keeps it: its minutes, how it ended, and where it started in the park's day. */
const pastOutage =
  (hours: DayOutages['hours']) =>
  ({ from, minutes, censored }: Outage): PastOutage => [
    minutes,
    censored ?? 'open',
    hours ? Math.round((from - hours.opensAt) / MINUTE_MS) : null,
    hours ? Math.round((hours.closesAt - from) / MINUTE_MS) : null,
  ];

/** A basis's durations for the reopen odds (moment-shares.ts); an older basis's censored count as not back. */
export const durationsOf = (basis: OutageBasis | null): Duration[] =>
  (basis?.durations ?? []).flatMap(({ ended, censored, outages = [] }) => [
    ...ended.map((minutes) => ({ minutes, reopened: true })),
    ...censored.map((minutes) => ({ minutes, reopened: false })),
    ...outages.map(([minutes, end, sinceOpening, toClosing]) => ({
      minutes,
      reopened: end === 'open',
      lost: end === 'gap',
      sinceOpening,
      toClosing,
    })),
  ]);

/** The park's reopen table, its pool from every park's basis (one read per other park, once a day). */
async function writeReopenTable(slug: string, basis: OutageBasis, now: number): Promise<void> {
  const others = await Promise.all(
    PARKS.filter((park) => park.slug !== slug).map((park) => readBasis(park.slug).catch(() => null)),
  );
  const own = durationsOf(basis);
  const pool = [...own, ...others.flatMap(durationsOf)];
  const table = reopenTableOf(own, pool, now);
  await writeRecord('wait-times', reopenTableKey(slug), ReopenTableSchema, table);
}
