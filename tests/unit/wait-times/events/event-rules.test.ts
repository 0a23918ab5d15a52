import { describe, expect, it } from 'vitest';
import {
  type EventInputs,
  eventsOf,
  newestFirst,
  type PollRide,
} from '../../../../src/wait-times/events/event-rules.ts';
import type { BandSides, ParkEvent } from '../../../../src/wait-times/events/event-schemas.ts';
import { fromWallClock } from '../../../../src/wait-times/local-time.ts';
import type { DayOutages, ReopenTable } from '../../../../src/wait-times/outages/outage-schemas.ts';

// The rules of one poll, run poll after poll as the store runs them: each poll sees the events
// kept so far and the band sides the previous poll left.

const MINUTE = 60_000;
const PARK = { slug: 'epcot', timezone: 'America/New_York' };
const localTime = (iso: string, zone: string) => fromWallClock(Date.parse(`${iso}Z`), zone);
const T0 = localTime('2026-07-04T10:00:00', PARK.timezone);
const HOURS = {
  opensAt: localTime('2026-07-04T09:00:00', PARK.timezone),
  closesAt: localTime('2026-07-04T21:00:00', PARK.timezone),
};
const at = (step: number) => T0 + step * 5 * MINUTE;

const ride = (id: number, wait: number | null): PollRide => ({
  id,
  name: `Ride ${id}`,
  wait: wait ?? 0,
  open: wait !== null,
  forecast: wait === null ? null : wait + 5,
});

/** `lost`: the poll's events write failed, so the next poll sees what the one before it left. */
type Poll = Partial<Omit<EventInputs, 'recent' | 'sides' | 'park'>> & { at: number; rides: PollRide[]; lost?: true };

/** Runs polls in order as event-store.ts does; every event told, oldest first. */
function run(polls: Poll[], start: { recent?: ParkEvent[]; sides?: BandSides | null } = {}) {
  let recent = start.recent ?? [];
  let sides = start.sides ?? null;
  const told: ParkEvent[] = [];
  for (const { lost, ...poll } of polls) {
    const result = eventsOf({ park: PARK, hours: HOURS, outages: null, reopen: null, ...poll, recent, sides });
    if (lost) continue;
    const added = result.events.filter((event) => !recent.some((known) => known.id === event.id));
    recent = [...added, ...recent].sort(newestFirst);
    sides = result.sides;
    told.push(...added.toReversed());
  }
  return told;
}

const waits = (series: (number | null)[], id = 1) =>
  series.map((wait, step) => ({ at: at(step), rides: [ride(id, wait)] }));
const brief = (events: ParkEvent[]) =>
  events.map(
    (event) => `${(event.at - T0) / MINUTE}m ${event.type}${event.band === undefined ? '' : ` ${event.band}`}`,
  );

describe('wait bands', () => {
  it('tells each crossing once, with the dead zone and at most one per direction in 15 minutes', () => {
    const events = run(waits([35, 30, 25, 20, 25, 20, 25, 15, 10, 20, 30, 40, 50, 55]));
    expect(brief(events)).toEqual([
      '0m park-opened',
      '5m wait-below 30', // 35 → 30: at or below 30
      // 20 at 15m crosses 20 too, but 10 minutes after the last wait-below: not told (the side still moves)
      '40m wait-below 10',
      '45m wait-above 10', // 10 → 20: ten past the band
      // 30 at 50m (band 20) and 40 at 55m (band 30) are within 15 minutes of the last wait-above
      '65m wait-above 45', // 55 is ten past 45
    ]);
    const below = events.find((event) => event.type === 'wait-below');
    expect(below).toMatchObject({
      id: `epcot/wait-below/1/${at(1)}`,
      ride: { id: 1, name: 'Ride 1' },
      waitNow: 30,
      forecast: 35,
    });
  });

  it('tells nothing while a wait bounces between a band and one step above it', () => {
    const events = run(waits([30, 20, 25, 20, 25, 20, 25, 20, 25, 20, 25, 20, 25]));
    expect(brief(events)).toEqual(['0m park-opened', '5m wait-below 20']);
  });

  it('tells the lowest band crossed when the wait falls past several in one poll', () => {
    expect(brief(run(waits([70, 25])))).toEqual(['0m park-opened', '5m wait-below 30']);
    expect(brief(run(waits([5, 65])))).toEqual(['0m park-opened', '5m wait-above 45']);
  });

  it('places a ride at its first open sample of the day, and again the next day, without telling', () => {
    const today = waits([null, 60, null, 15]);
    const tomorrow = { at: at(0) + 24 * 60 * MINUTE, rides: [ride(1, 10)] };
    // 60 then, after a closure, 15: a crossing (the ride keeps its side while closed); the next day starts afresh.
    expect(brief(run([...today, tomorrow]))).toEqual(['5m park-opened', '15m wait-below 20', '1440m park-opened']);
  });
});

describe('park opened and closed', () => {
  it('opens at the first ride open and closes only near the published closing when no ride runs', () => {
    const noon = { at: at(24), rides: [ride(1, null)] }; // all closed at noon: a hold, not the closing
    const closing = { at: HOURS.closesAt - 20 * MINUTE, rides: [ride(1, null)] };
    const later = { at: HOURS.closesAt, rides: [ride(1, null)] };
    expect(brief(run([...waits([null, 30]), noon, closing, later]))).toEqual(['5m park-opened', '640m park-closed']);
  });

  it('closes whenever no ride runs where the hours are not known', () => {
    const polls = waits([30, null, 30]).map((poll) => ({ ...poll, hours: null }));
    expect(brief(run(polls))).toEqual(['0m park-opened', '5m park-closed', '10m park-opened']);
  });
});

describe('ride-down, ride-reopened and park-hold from the outage rules', () => {
  const day = (outages: DayOutages['outages'], holds: number[] = []): DayOutages => ({
    version: 1,
    date: '2026-07-04',
    updatedAt: T0,
    outages,
    holds,
  });
  const table: ReopenTable = {
    version: 1,
    builtAt: T0,
    buckets: [
      { elapsed: 5, reopenWithin: { '15': 0.35, '30': 0.55, '60': 0.7 }, outages: 412, scope: 'park' },
      { elapsed: 30, reopenWithin: { '15': 0.2, '30': 0.35, '60': 0.55 }, outages: 180, scope: 'park' },
    ],
  };

  it('tells a ride down at the second closed sample, with the odds, and reopened with how long it was down', () => {
    const down = (minutes: number) => ({ ride: '7', from: at(1), to: null, minutes, censored: null });
    const series: [number | null, DayOutages][] = [
      [40, day([])],
      [40, day([])],
      [null, day([])], // first closed sample: a blip so far
      [null, day([down(10)])], // second: the rules call it an outage from the last open sample
      [null, day([down(15)])],
      [null, day([down(20)])],
      [null, day([down(25)])],
      [20, day([{ ...down(30), to: at(7), minutes: 30 }])],
      [20, day([{ ...down(30), to: at(7), minutes: 30 }])],
    ];
    let previous: DayOutages | null = null;
    const polls = series.map(([wait, next], step) => {
      const poll = { at: at(step), rides: [ride(7, wait), ride(8, 45)], outages: { previous, next }, reopen: table };
      previous = next;
      return poll;
    });
    const events = run(polls).filter((event) => event.type.startsWith('ride-'));
    expect(events).toEqual([
      {
        id: `epcot/ride-down/7/${at(3)}`,
        type: 'ride-down',
        park: 'epcot',
        at: at(3),
        ride: { id: 7, name: 'Ride 7' },
        waitNow: null,
        forecast: null,
        downMinutes: 10,
        reopenWithin: { '15': 0.35, '30': 0.55, '60': 0.7 },
        outages: 412,
      },
      {
        id: `epcot/ride-reopened/7/${at(7)}`,
        type: 'ride-reopened',
        park: 'epcot',
        at: at(7),
        ride: { id: 7, name: 'Ride 7' },
        waitNow: 20,
        forecast: 25,
        downMinutes: 30,
      },
    ]);
  });

  it('gives the odds as the history serves them: cut where the park closes before the horizon', () => {
    const closesIn20 = HOURS.closesAt - 20 * MINUTE;
    const outage = { ride: '7', from: closesIn20 - 40 * MINUTE, to: null, minutes: 40, censored: null };
    const [down] = run([
      { at: closesIn20, rides: [ride(7, null)], outages: { previous: day([]), next: day([outage]) }, reopen: table },
    ]);
    // Bucket 30 (0.2, 0.35, 0.55); with 20 minutes left, 30 and 60 minutes are read at 20.
    expect(down).toMatchObject({
      type: 'ride-down',
      reopenWithin: { '15': 0.2, '30': 0.25, '60': 0.25 },
      outages: 180,
    });
  });

  it('tells at the next poll what a poll could not keep, once, and a reopening only if recent', () => {
    const down = { ride: '7', from: at(0), to: null, minutes: 10, censored: null };
    const back = (step: number) => ({ ...down, to: at(step), minutes: step * 5 });
    const polls = (lostUntil: number, reopenedAt: number) =>
      [2, 3, 4, 5, 6, 7, 8].map((step) => ({
        at: at(step),
        rides: [ride(7, step >= reopenedAt ? 20 : null), ride(8, 30)],
        outages: {
          previous: step === 2 ? null : day([step - 1 >= reopenedAt ? back(reopenedAt) : down]),
          next: day([step >= reopenedAt ? back(reopenedAt) : down]),
        },
        ...(step <= lostUntil && { lost: true as const }),
      }));
    const rideEvents = (events: ParkEvent[]) => brief(events.filter((event) => event.ride?.id === 7));
    // Down from 10 minutes, back at 25: the polls at 10 and 15 minutes were lost.
    expect(rideEvents(run(polls(3, 5)))).toEqual(['20m ride-down', '25m ride-reopened']);
    // Down and back while its polls were lost: told when seen, the reopening 10 minutes late at most.
    expect(rideEvents(run(polls(6, 5)))).toEqual(['35m ride-reopened']);
    // 20 minutes late: the reopening is old news, not told.
    expect(rideEvents(run(polls(7, 4)))).toEqual([]);
  });

  it('tells no reopening for an outage cut off unseen, and nothing at all without the outage rules', () => {
    const cut = { ride: '7', from: at(0), to: at(2), minutes: 10, censored: 'gap' as const };
    const ongoing = { ...cut, to: null, censored: null };
    const polls = [
      { at: at(1), rides: [ride(7, null)], outages: { previous: null, next: day([ongoing]) } },
      { at: at(2), rides: [ride(7, 30)], outages: { previous: day([ongoing]), next: day([cut]) } },
    ];
    expect(run(polls).map((event) => event.type)).toEqual(['ride-down', 'park-opened']);
    expect(run(waits([40, null, null, null, 40], 7)).map((event) => event.type)).toEqual(['park-opened']);
  });

  it('tells a new hold once, with the rides seen running today that closed, but not at the closing', () => {
    const rides = (open: boolean) => [1, 2, 3, 4, 5, 6].map((id) => ride(id, open ? 30 : null));
    const hold = day([], [at(1)]);
    const polls = [
      { at: at(0), rides: rides(true), outages: { previous: null, next: day([]) } },
      { at: at(1), rides: rides(false), outages: { previous: day([]), next: hold } },
      { at: at(2), rides: rides(false), outages: { previous: hold, next: hold } },
      { at: at(3), rides: rides(true), outages: { previous: hold, next: hold } },
    ];
    const events = run(polls);
    expect(brief(events)).toEqual(['0m park-opened', '5m park-hold']);
    expect(events[1]).toMatchObject({ ride: null, ridesClosed: 6, waitNow: null });
    const closing = HOURS.closesAt - 10 * MINUTE;
    const atClosing = [
      { at: at(0), rides: rides(true), outages: { previous: null, next: day([]) } },
      { at: closing, rides: rides(false), outages: { previous: day([]), next: day([], [closing]) } },
      // The next poll sees the same hold: the closing, already told.
      { at: closing + 5 * MINUTE, rides: rides(false), outages: { previous: day([]), next: day([], [closing]) } },
    ];
    expect(run(atClosing).map((event) => event.type)).toEqual(['park-opened', 'park-closed']);
  });
});
