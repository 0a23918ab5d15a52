import { readRecord } from '../../platform/store.ts';
import { MINUTE_MS } from '../../platform/time-units.ts';
import {
  type DayOutages,
  type Outage,
  type ReopenBucket,
  type ReopenTable,
  ReopenTableSchema,
  type ReopenWithin,
  reopenTableKey,
} from './outage-schemas.ts';
import { oddsFor } from './reopen-odds.ts';

// The read side of down rides (docs/wait-history.md#down-rides-what-the-history-serves): the two
// records the recorder writes, read by GET /api/wait-times/history and the MCP tools, and what each
// ride is served from them. Never written here: the recorder is the one writer.

/** A ride down now, as served: since when, for how long, and its odds of reopening soon. */
export interface RideDown {
  since: number;
  minutes: number;
  reopenWithin: ReopenWithin | null;
  outages: number;
  /** Null when no odds apply: no table read, or the ride down for less than the first bucket. */
  scope: ReopenBucket['scope'] | null;
}

/** One outage of a ride today, as served (the record's ride id stays inside). */
export interface RideOutage {
  from: number;
  to: number | null;
  minutes: number;
  censored: Outage['censored'];
}

/** The park's outages of one local day, or null: the recorder's own read (outage-store.ts). */
export { readDayOutages } from './outage-store.ts';

/** The park's reopen odds, or null (none built yet, or a damaged record). */
export function readReopenTable(slug: string): Promise<ReopenTable | null> {
  return readRecord('wait-times', reopenTableKey(slug), ReopenTableSchema);
}

/** The day's outages grouped by ride id, each ride's in order of their start. */
export function outagesByRide(record: DayOutages | null): Map<string, Outage[]> {
  const byRide = new Map<string, Outage[]>();
  for (const outage of record?.outages ?? []) byRide.set(outage.ride, [...(byRide.get(outage.ride) ?? []), outage]);
  for (const list of byRide.values()) list.sort((a, b) => a.from - b.from);
  return byRide;
}

export const servedOutage = ({ from, to, minutes, censored }: Outage): RideOutage => ({ from, to, minutes, censored });

/** What `down` is read against: the day's newest sample, and the park's hours today (null: unknown). */
export interface DownMoment {
  asOf: number;
  hours: { opensAt: number; closesAt: number } | null;
}

/**
 * The ride's `down` from its outages today: its ongoing one (`to` null, the latest if several),
 * with the minutes from its start to `asOf` (the newest sample of the day: the stored count lags
 * when the outage record missed a write the day got), and the odds of its bucket. The bucket is the
 * one with the largest `elapsed` at or below the minutes down (`bucketFor`): each bucket's odds are
 * for outages that have lasted at least its `elapsed`, so the largest one the ride has reached uses
 * the most that is known, and a longer one would assume an outage the ride has not had (leaning
 * towards long ones). The odds are the bucket's for the part of the day the ride is down in, cut to
 * the time left before closing (`oddsFor`: no ride reopens for visitors after closing). Null when
 * none is ongoing. The
 * caller checks that the ride is closed at the newest sample: an ongoing outage of a ride open
 * since is a record that missed its last write.
 */
export function downOf(outages: readonly Outage[], table: ReopenTable | null, moment: DownMoment): RideDown | null {
  const ongoing = outages.findLast((outage) => outage.to === null);
  if (!ongoing) return null;
  const minutes = Math.max(ongoing.minutes, Math.floor((moment.asOf - ongoing.from) / MINUTE_MS));
  const { asOf, hours } = moment;
  const odds = oddsFor(table, {
    minutesDown: minutes,
    minutesSinceOpening: hours && (asOf - hours.opensAt) / MINUTE_MS,
    minutesToClosing: hours && (hours.closesAt - asOf) / MINUTE_MS,
  });
  return {
    since: ongoing.from,
    minutes,
    reopenWithin: odds?.reopenWithin ?? null,
    outages: odds?.outages ?? 0,
    scope: odds?.scope ?? null,
  };
}
