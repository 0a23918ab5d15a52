import { MINUTE_MS, MINUTES_PER_HOUR } from '../src/platform/time-units.ts';
import { minuteOfDay } from '../src/wait-times/local-time.ts';
import { PARKS, type Park } from '../src/wait-times/parks.ts';
import { type Fake, type FakeControl, type FaultMode, HTML, readFixture, startFake } from './fake-http-server.mts';
import { fakeScheduleOf } from './fake-park-hours.mts';

// A local stand-in for queue-times.com replaying real recorded payloads (fixtures/queue-times), for
// the tests, the bench and `npm run demo`; below `/entity/{id}/schedule` it also stands in for
// ThemeParks.wiki's park schedules (scripts/fake-park-hours.mts), so one URL serves both upstreams.
interface QueueTimesState {
  /** Payloads served instead of the recorded ones, by queue-times park id. */
  payloads: Record<number, unknown>;
  /** Schedules served instead of the usual ones, by ThemeParks.wiki park id. */
  schedules: Record<string, unknown>;
  /** One park's fault (a hang, a 500, garbage…) by queue-times park id, the others answering. */
  faults: Record<number, Exclude<FaultMode, 'ok'>>;
}
export type FakeQueueTimes = Fake<QueueTimesState>;
export type FakeQueueTimesControl = FakeControl<QueueTimesState>;

/** Recorded payloads by the queue-times park id they were captured from. */
const RECORDED: Readonly<Record<number, string>> = {
  4: 'queue-times-disneyland-paris-01iwier.json',
  5: 'queue-times-epcot-jzxhanta.json',
  7: 'queue-times-hollywood-studios-jzxhanta.json',
  28: 'queue-times-walt-disney-studios-paris-01iwier.json',
  51: 'queue-times-europa-park-open-valentinfrlch.json',
};
type RideLike = { id: number; name?: string; wait_time: number; is_open: boolean; last_updated?: string };

/** The queue-times id of the park whose recording a park is served: its own, or one it borrows. */
export function recordingOf(parkId: number): number {
  if (RECORDED[parkId]) return parkId;
  const recorded = Object.keys(RECORDED).map(Number);
  return recorded[parkId % recorded.length] ?? 5;
}

/** The park whose recorded rides a park borrows (it has no recording of its own), or null. */
export function borrowedFrom(parkId: number): Park | null {
  const source = recordingOf(parkId);
  return source === parkId ? null : (PARKS.find((park) => park.queueTimesId === source) ?? null);
}

/** The recorded payload for a park; parks without a recording borrow one, so every park has data. */
export function recordedPayload(parkId: number): unknown {
  return JSON.parse(readFixture(`queue-times/${RECORDED[recordingOf(parkId)]}`));
}

/**
 * The recorded payload with a borrowed one's rides named as such ("Test Track (borrowed from
 * EPCOT)"): the demo's pages and answers say plainly which park's rides a park without a recording shows.
 */
export function labelledPayload(parkId: number): unknown {
  const payload = recordedPayload(parkId) as { lands: { rides: RideLike[] }[]; rides: RideLike[] };
  const source = borrowedFrom(parkId);
  if (!source) return payload;
  const label = (ride: RideLike): RideLike => ({ ...ride, name: `${ride.name} (borrowed from ${source.name})` });
  return {
    ...payload,
    lands: payload.lands.map((land) => ({ ...land, rides: land.rides.map(label) })),
    rides: payload.rides.map(label),
  };
}

/** How busy a park is at a local hour: 0.15 at night, a bell curve peaking at 1 at 14:00. */
function dayShape(hour: number): number {
  if (hour < 8 || hour >= 22) return 0.15;
  return 0.15 + 0.85 * Math.exp(-((hour - 14) ** 2) / (2 * 3.2 ** 2));
}

/** The wobble per ride about the day shape: ±12 % over 50 minutes, as noisy as posted waits look. */
export const WOBBLE = 0.12;

/**
 * The recorded waits moved along `dayShape` in the park's own time zone (UTC for an unknown id),
 * `crowd` times a usual day, with a small `wobble` per ride, in 5-minute steps.
 */
export function movingWaits(payload: unknown, now: number, parkId: number, crowd = 1, wobble = WOBBLE): unknown {
  const at = new Date(now).toISOString();
  const zone = PARKS.find((park) => park.queueTimesId === parkId)?.timezone ?? 'UTC';
  const shape = dayShape(minuteOfDay(now, zone) / MINUTES_PER_HOUR);
  const move = (ride: RideLike): RideLike => {
    if (!ride.is_open) return { ...ride, last_updated: at };
    const base = ride.wait_time > 0 ? ride.wait_time : 15 + (ride.id % 6) * 5;
    const wobbled = 1 + wobble * Math.sin((now / (50 * MINUTE_MS)) * 2 * Math.PI + ride.id);
    const wait = Math.max(5, Math.round((base * 1.6 * shape * crowd * wobbled) / 5) * 5);
    return { ...ride, wait_time: wait, last_updated: at };
  };
  const park = payload as { lands: { rides: RideLike[] }[]; rides: RideLike[] };
  return {
    ...park,
    lands: park.lands.map((land) => ({ ...land, rides: land.rides.map(move) })),
    rides: park.rides.map(move),
  };
}

/** The payload with these rides (queue-times ids) closed, as a ride down reports. */
export function withClosedRides(payload: unknown, rides: readonly number[]): unknown {
  const close = (ride: RideLike): RideLike =>
    rides.includes(ride.id) ? { ...ride, wait_time: 0, is_open: false } : ride;
  const park = payload as { lands: { rides: RideLike[] }[]; rides: RideLike[] };
  return {
    ...park,
    lands: park.lands.map((land) => ({ ...land, rides: land.rides.map(close) })),
    rides: park.rides.map(close),
  };
}

/**
 * With `moving`, waits follow `movingWaits` (the demo, the soak); with `labelled`, borrowed rides say
 * so (`labelledPayload`); `closed` keeps rides closed by queue-times park id (rides down in the
 * browser tests and the demo), through every reset.
 */
export function startFakeQueueTimes(
  options: {
    moving?: boolean;
    crowd?: number;
    wobble?: number;
    port?: number;
    labelled?: boolean;
    closed?: Readonly<Record<number, readonly number[]>>;
  } = {},
): Promise<FakeQueueTimes> {
  return startFake(
    (): QueueTimesState => ({ payloads: {}, schedules: {}, faults: {} }),
    (request, fake) => {
      const scheduleOf = /^\/entity\/([\w-]+)\/schedule$/.exec(request.path)?.[1];
      if (scheduleOf) {
        const park = PARKS.find((candidate) => candidate.themeParksWikiId === scheduleOf);
        const schedule = fake.schedules[scheduleOf] ?? (park && fakeScheduleOf(park, Date.now()));
        return schedule ? [200, JSON.stringify(schedule)] : [404, '{"message":"Entity not found"}'];
      }
      const parkId = Number(/^\/parks\/(\d+)\/queue_times\.json$/.exec(request.path)?.[1]);
      if (!parkId) return [404, '<h1>Not found</h1>', HTML];
      if (fake.faults[parkId]) return fake.faults[parkId];
      const payload = fake.payloads[parkId] ?? (options.labelled ? labelledPayload(parkId) : recordedPayload(parkId));
      const moved = options.moving ? movingWaits(payload, Date.now(), parkId, options.crowd, options.wobble) : payload;
      const closed = options.closed?.[parkId];
      return [200, JSON.stringify(closed ? withClosedRides(moved, closed) : moved)];
    },
    options.port,
  );
}
