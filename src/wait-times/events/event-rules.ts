import { MINUTE_MS, QUARTER_HOUR_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { localDateOf } from '../local-time.ts';
import type { DayOutages, Outage, ReopenTable } from '../outages/outage-schemas.ts';
import { oddsFor } from '../outages/reopen-odds.ts';
import type { BandSides, EventType, ParkEvent } from './event-schemas.ts';
import { WAIT_BANDS } from './event-schemas.ts';

// What changed at a park in one poll (docs/alerts.md): pure, from this poll, what is kept of the
// park (its events of the last 48 hours and the side of each band each ride is on) and, where the
// outage rules ran, the day's outages before and after this poll.

/** A ride of this poll: the upstream id and name, the wait and whether it runs, the 30-minute forecast served. */
export interface PollRide {
  id: number;
  name: string;
  wait: number;
  open: boolean;
  forecast: number | null;
}

export interface EventInputs {
  park: { slug: string; timezone: string };
  /** The sample's time and rides. */
  at: number;
  rides: readonly PollRide[];
  hours: DayHours | null;
  /** The day's outages before and after this poll; null where the outage rules did not run (no ride events then). */
  outages: { previous: DayOutages | null; next: DayOutages } | null;
  reopen: ReopenTable | null;
  /** The park's kept events, newest first, and the band sides as last stored (null: none yet). */
  recent: readonly ParkEvent[];
  sides: BandSides | null;
}

/**
 * The band's dead zone: a ride is below band B at a wait of B or less, and above it only at B + 10
 * or more; at B + 5 it stays on the side it was. Posted waits move in 5-minute steps, so a wait
 * bouncing between 20 and 25 crosses no band twice: with a one-step margin it would alert each time.
 */
export const BAND_HYSTERESIS_MINUTES = 10;
/** At most one `wait-below` and one `wait-above` per ride in this long. */
export const REPEAT_WITHIN_MS = QUARTER_HOUR_MS;
/** What a poll could not keep (its events write failed) the next tells, if it happened this recently. */
export const CATCH_UP_MS = QUARTER_HOUR_MS;
/** Rides closing this close to the published closing are the park closing (the outage rules' window too). */
export const CLOSING_WINDOW_MS = 30 * MINUTE_MS;

/** The events of this poll (newest first, as stored) and the band sides to keep. */
export function eventsOf(inputs: EventInputs): { events: ParkEvent[]; sides: BandSides } {
  const date = localDateOf(inputs.at, inputs.park.timezone);
  const park = parkEvents(inputs, date);
  const bands = bandEvents(inputs, date);
  const outages = outageEvents(inputs, date);
  // A closing is not also a hold, though most rides close in its sample.
  const closing = park.some((event) => event.type === 'park-closed');
  const events = [...park, ...outages.filter((event) => !(closing && event.type === 'park-hold')), ...bands.events];
  return { events: events.sort(newestFirst), sides: bands.sides };
}

const TYPE_ORDER: readonly EventType[] = [
  'park-closed',
  'park-hold',
  'ride-down',
  'ride-reopened',
  'wait-above',
  'wait-below',
  'park-opened',
];

/** Newest first; within one sample in a fixed order, so the same events always read the same. */
export function newestFirst(a: ParkEvent, b: ParkEvent): number {
  return (
    b.at - a.at ||
    TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) ||
    (a.ride?.id ?? -1) - (b.ride?.id ?? -1) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** The stable id: `<park>/<type>/<ride id or "park">/<at>`. */
export const eventId = (park: string, type: EventType, ride: number | null, at: number) =>
  `${park}/${type}/${ride ?? 'park'}/${at}`;

type Fields = Partial<Pick<ParkEvent, 'band' | 'downMinutes' | 'reopenWithin' | 'outages' | 'ridesClosed'>>;

function event(inputs: EventInputs, type: EventType, ride: PollRide | null, fields: Fields = {}, at = inputs.at) {
  const open = ride?.open === true;
  return {
    id: eventId(inputs.park.slug, type, ride?.id ?? null, at),
    type,
    park: inputs.park.slug,
    at,
    ride: ride && { id: ride.id, name: ride.name },
    waitNow: open ? ride.wait : null,
    forecast: open ? ride.forecast : null,
    ...fields,
  } satisfies ParkEvent;
}

/**
 * `park-opened` at the first sample of the local day with a ride open (or the first after a
 * `park-closed`); `park-closed` at the first sample with none open, within 30 minutes of the
 * published closing or later, or at any time when the hours are not known.
 */
function parkEvents(inputs: EventInputs, date: string): ParkEvent[] {
  const last = inputs.recent.find((known) => known.type === 'park-opened' || known.type === 'park-closed');
  const openToday = last?.type === 'park-opened' && localDateOf(last.at, inputs.park.timezone) === date;
  const anyOpen = inputs.rides.some((ride) => ride.open);
  if (!openToday && anyOpen) return [event(inputs, 'park-opened', null)];
  const closing = inputs.hours === null || inputs.at >= inputs.hours.closesAt - CLOSING_WINDOW_MS;
  if (openToday && !anyOpen && closing) return [event(inputs, 'park-closed', null)];
  return [];
}

/** Whether the ride had an event of this type in the 15 minutes before `at`. */
const repeated = (inputs: EventInputs, type: EventType, ride: number) =>
  inputs.recent.some(
    (known) => known.type === type && known.ride?.id === ride && known.at > inputs.at - REPEAT_WITHIN_MS,
  );

/**
 * Band crossings, with the hysteresis above: one `wait-below` (the lowest band crossed) or
 * `wait-above` (the highest) per ride and sample, none within 15 minutes of the last of its
 * direction. A ride's first open sample of the day only places it; a closed ride keeps its sides.
 */
function bandEvents(inputs: EventInputs, date: string): { events: ParkEvent[]; sides: BandSides } {
  const kept = inputs.sides?.date === date ? inputs.sides.rides : {};
  const rides: Record<string, number[]> = { ...kept };
  const events: ParkEvent[] = [];
  for (const ride of inputs.rides) {
    if (!ride.open) continue;
    const above = kept[String(ride.id)];
    if (above === undefined) {
      rides[String(ride.id)] = WAIT_BANDS.filter((band) => ride.wait > band);
      continue;
    }
    const down = above.filter((band) => ride.wait <= band);
    const up = WAIT_BANDS.filter((band) => !above.includes(band) && ride.wait >= band + BAND_HYSTERESIS_MINUTES);
    rides[String(ride.id)] = [...above.filter((band) => !down.includes(band)), ...up].sort((a, b) => a - b);
    if (down.length > 0 && !repeated(inputs, 'wait-below', ride.id)) {
      events.push(event(inputs, 'wait-below', ride, { band: Math.min(...down) }));
    }
    if (up.length > 0 && !repeated(inputs, 'wait-above', ride.id)) {
      events.push(event(inputs, 'wait-above', ride, { band: Math.max(...up) }));
    }
  }
  return { events, sides: { date, rides } };
}

/**
 * The odds for a ride down `minutes` so far, exactly as the history serves them (outages/reopen-odds.ts
 * `oddsFor`: the bucket's, in the part of the day, cut at the closing); null resting on 0 outages without.
 */
function oddsOf(inputs: EventInputs, minutes: number): Pick<ParkEvent, 'reopenWithin' | 'outages'> {
  const { hours, at } = inputs;
  const odds = oddsFor(inputs.reopen, {
    minutesDown: minutes,
    minutesSinceOpening: hours && (at - hours.opensAt) / MINUTE_MS,
    minutesToClosing: hours && (hours.closesAt - at) / MINUTE_MS,
  });
  return { reopenWithin: odds?.reopenWithin ?? null, outages: odds?.outages ?? 0 };
}

const sameOutage = (a: Outage, b: Outage) => a.ride === b.ride && a.from === b.from;

/**
 * From the outage rules (outages/): `ride-down` for an outage ongoing (the rules make it so at the
 * second closed sample), `ride-reopened` for one that ended at this sample or since the previous
 * poll (not one cut off by the closing, a gap or the day's end), `park-hold` for a new hold. Each
 * once: one among the kept events is not told again, and one a poll could not keep (its events
 * write failed) is told by the next, within `CATCH_UP_MS`.
 */
function outageEvents(inputs: EventInputs, date: string): ParkEvent[] {
  if (!inputs.outages) return [];
  const { previous, next } = inputs.outages;
  const before = previous?.date === next.date ? previous : null;
  const rideOf = (id: string): PollRide => {
    const ride = inputs.rides.find((candidate) => String(candidate.id) === id);
    return ride ?? { id: Number(id), name: `Ride ${id}`, wait: 0, open: false, forecast: null };
  };
  const told = (type: EventType, ride: string, since: number) =>
    inputs.recent.some((known) => known.type === type && String(known.ride?.id) === ride && known.at >= since);
  const lately = (at: number) => at >= inputs.at - CATCH_UP_MS;
  const events: ParkEvent[] = [];
  for (const outage of next.outages) {
    if (!/^\d+$/.test(outage.ride)) continue; // ids are queue-times' integers
    if (outage.to === null) {
      if (told('ride-down', outage.ride, outage.from)) continue;
      const odds = oddsOf(inputs, outage.minutes);
      events.push(event(inputs, 'ride-down', rideOf(outage.ride), { downMinutes: outage.minutes, ...odds }));
    } else if (outage.censored === null) {
      const wasDown = before?.outages.find((candidate) => sameOutage(candidate, outage))?.to === null;
      if (!(wasDown || lately(outage.to)) || told('ride-reopened', outage.ride, outage.to)) continue;
      events.push(event(inputs, 'ride-reopened', rideOf(outage.ride), { downMinutes: outage.minutes }));
    }
  }
  const seenOpen = inputs.sides?.date === date ? Object.keys(inputs.sides.rides) : [];
  for (const hold of next.holds) {
    // A hold already told, or the park's closing (told as that), is not told again.
    const known = inputs.recent.some((event) => event.at === hold && ['park-hold', 'park-closed'].includes(event.type));
    if (!lately(hold) || known) continue;
    // The rides seen running today that are closed now: how many the hold stopped, as near as a poll tells.
    const ridesClosed = inputs.rides.filter((ride) => !ride.open && seenOpen.includes(String(ride.id))).length;
    events.push(event(inputs, 'park-hold', null, hold === inputs.at ? { ridesClosed } : {}, hold));
  }
  return events;
}
