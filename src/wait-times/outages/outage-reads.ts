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

/**
 * The bucket that answers for a ride down `minutes` so far: the one with the largest `elapsed` at or
 * below it. Each bucket's odds are conditional on an outage having lasted `elapsed` minutes (the
 * outages still running then); the largest one the ride has reached conditions on the most we know,
 * and never on a longer outage than the ride has had, which would lean towards long outages. Null
 * below the first bucket (no odds rest on so short an outage).
 */
export function bucketFor(table: ReopenTable | null, minutes: number): ReopenBucket | null {
  let chosen: ReopenBucket | null = null;
  for (const bucket of table?.buckets ?? []) {
    if (bucket.elapsed <= minutes && (chosen === null || bucket.elapsed > chosen.elapsed)) chosen = bucket;
  }
  return chosen;
}

/**
 * The ride's `down` from its outages today: its ongoing one (`to` null, the latest if several),
 * with the minutes from its start to `asOf` (the newest sample of the day: the stored count lags
 * when the outage record missed a write the day got) and the odds of its bucket; null when none is
 * ongoing. The caller checks that the ride is closed at the newest sample: an ongoing outage of a
 * ride open since is a record that missed its last write.
 */
export function downOf(outages: readonly Outage[], table: ReopenTable | null, asOf: number): RideDown | null {
  const ongoing = outages.findLast((outage) => outage.to === null);
  if (!ongoing) return null;
  const minutes = Math.max(ongoing.minutes, Math.floor((asOf - ongoing.from) / MINUTE_MS));
  const bucket = bucketFor(table, minutes);
  return {
    since: ongoing.from,
    minutes,
    reopenWithin: bucket?.reopenWithin ?? null,
    outages: bucket?.outages ?? 0,
    scope: bucket?.scope ?? null,
  };
}
