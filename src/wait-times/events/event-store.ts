import { readRecord, writeRecord } from '../../platform/store.ts';
import { DAY_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { readReopenTable } from '../outages/outage-reads.ts';
import type { DayOutages } from '../outages/outage-schemas.ts';
import type { ParkSnapshot } from '../park-snapshot-schemas.ts';
import { PARK_SLUGS, type Park } from '../parks.ts';
import type { WaitTimes } from '../wait-times-schemas.ts';
import { eventsOf, newestFirst, type PollRide } from './event-rules.ts';
import { type ParkEvent, type ParkEvents, ParkEventsSchema, parkEventsKey } from './event-schemas.ts';

// A park's events of the last 48 hours at `events/<slug>` in the `wait-times` store, written by
// the recorder alone (recorder/park-records.ts) and read by the feeds and the MCP tool.

/** Events are kept this long: a day's and the evening before it, for readers polling hourly or less. */
export const EVENTS_KEPT_MS = 2 * DAY_MS;
/** A bound on one park's record whatever happens upstream (a busy day makes a few hundred). */
export const MAX_KEPT_EVENTS = 2_000;

/** The park's kept events, newest first; null before its first. */
export function readParkEvents(slug: string): Promise<ParkEvents | null> {
  return readRecord('wait-times', parkEventsKey(slug), ParkEventsSchema);
}

/** The park's events of the 48 hours before `now`, newest first (the recorder drops older ones only when it polls). */
export async function readRecentEvents(slug: string, now = Date.now()): Promise<ParkEvent[]> {
  const stored = await readParkEvents(slug);
  return (stored?.events ?? []).filter((event) => event.at > now - EVENTS_KEPT_MS);
}

/** The rides of a poll: the snapshot's ids and waits with the 30-minute forecast the answer serves (rides matched by name). */
export function pollRidesOf(snapshot: ParkSnapshot, answer: WaitTimes): PollRide[] {
  const forecasts = new Map<string, number | null>();
  for (const ride of answer.rides) if (!forecasts.has(ride.name)) forecasts.set(ride.name, ride.forecast);
  return snapshot.rides.map((ride) => ({ ...ride, forecast: forecasts.get(ride.name) ?? null }));
}

/** What the rules take besides the poll: today's hours and the day's outages before and after it. */
export interface EventContext {
  hours: DayHours | null;
  /** null when the outages could not be recorded: no ride-down, ride-reopened or park-hold then. */
  outages: { previous: DayOutages | null; next: DayOutages } | null;
}

/**
 * The events of one poll, added to the park's record, which is written only when something in it
 * changed: an event added, one older than 48 hours dropped, or a ride crossing a band (its side is
 * what the next poll's hysteresis reads). Returns the events added, for whoever tells people of them.
 */
export async function recordEvents(
  park: Pick<Park, 'slug' | 'timezone'>,
  poll: { at: number; rides: readonly PollRide[] },
  context: EventContext,
): Promise<ParkEvent[]> {
  // Only the parks the API serves have feeds (an event names one of them); a park outside the table
  // (a measurement's made-up park) has nothing to tell.
  if (!PARK_SLUGS.includes(park.slug)) return [];
  const [stored, reopen] = await Promise.all([
    readParkEvents(park.slug),
    // Odds are only for a ride newly down, and none are better than a failed poll.
    context.outages ? readReopenTable(park.slug).catch(() => null) : null,
  ]);
  const kept = (stored?.events ?? []).filter((known) => known.at > poll.at - EVENTS_KEPT_MS);
  const { events, sides } = eventsOf({ park, ...poll, ...context, reopen, recent: kept, sides: stored?.sides ?? null });
  const added = events.filter((event) => !kept.some((known) => known.id === event.id));
  const dropped = kept.length < (stored?.events.length ?? 0);
  const moved = JSON.stringify(sides) !== JSON.stringify(stored?.sides ?? null);
  if (added.length > 0 || dropped || moved) {
    const all = [...added, ...kept].sort(newestFirst).slice(0, MAX_KEPT_EVENTS);
    await writeRecord('wait-times', parkEventsKey(park.slug), ParkEventsSchema, { version: 1, events: all, sides });
  }
  return added;
}
