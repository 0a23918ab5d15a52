import { minuteOfDay } from '../src/wait-times/local-time.ts';
import { PARKS } from '../src/wait-times/parks.ts';
import { type Fake, type FakeControl, HTML, readFixture, startFake } from './fake-http-server.mts';

/**
 * A local stand-in for queue-times.com that replays real recorded payloads (fixtures/queue-times),
 * records requests, and can be told to misbehave (fake-http-server.mts). Used by the tests, the
 * bench and `npm run demo`.
 */
interface QueueTimesState {
  /** Payloads served instead of the recorded ones, by queue-times park id. */
  payloads: Record<number, unknown>;
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
/** The recorded payload for a park; parks without a recording borrow one, so every park has data. */
export function recordedPayload(parkId: number): unknown {
  const files = Object.values(RECORDED);
  return JSON.parse(readFixture(`queue-times/${RECORDED[parkId] ?? files[parkId % files.length]}`));
}

type RideLike = { id: number; wait_time: number; is_open: boolean; last_updated?: string };

/**
 * How busy a park is at a local time of day, from 0.15 (night) to 1 (the early-afternoon peak):
 * a slow climb after the morning opening and a long fall towards the evening.
 */
function dayShape(localMinute: number): number {
  const hour = localMinute / 60;
  if (hour < 8 || hour >= 22) return 0.15;
  return 0.15 + 0.85 * Math.exp(-((hour - 14) ** 2) / (2 * 3.2 ** 2));
}

/** The time zone of a queue-times park id (a park without one in the table follows UTC). */
const zoneOf = (parkId: number) => PARKS.find((park) => park.queueTimesId === parkId)?.timezone ?? 'UTC';

/**
 * Moves the recorded waits along a believable day in the park's own time zone (`dayShape`),
 * scaled by `crowd` (1 = a usual day), with a small wobble per ride, in 5-minute steps: waits
 * climb to an early-afternoon peak and fall towards the evening.
 */
export function movingWaits(payload: unknown, now: number, parkId = 0, crowd = 1): unknown {
  const at = new Date(now).toISOString();
  const shape = dayShape(minuteOfDay(now, zoneOf(parkId)));
  const move = (ride: RideLike): RideLike => {
    if (!ride.is_open) return { ...ride, last_updated: at };
    const base = ride.wait_time > 0 ? ride.wait_time : 15 + (ride.id % 6) * 5;
    const wobble = 0.12 * Math.sin((now / (50 * 60_000)) * 2 * Math.PI + ride.id);
    const wait = Math.max(5, Math.round((base * 1.6 * shape * crowd * (1 + wobble)) / 5) * 5);
    return { ...ride, wait_time: wait, last_updated: at };
  };
  const park = payload as { lands: { rides: RideLike[] }[]; rides: RideLike[] };
  return {
    ...park,
    lands: park.lands.map((land) => ({ ...land, rides: land.rides.map(move) })),
    rides: park.rides.map(move),
  };
}

/**
 * With `moving`, waits move along a day-shaped curve (the demo, the soak), `crowd` times as busy
 * as a usual day (1 by default).
 */
export function startFakeQueueTimes(
  options: { moving?: boolean; crowd?: number; port?: number } = {},
): Promise<FakeQueueTimes> {
  return startFake(
    (): QueueTimesState => ({ payloads: {} }),
    (request, fake) => {
      const parkId = Number(/^\/parks\/(\d+)\/queue_times\.json$/.exec(request.path)?.[1]);
      if (!parkId) return [404, '<h1>Not found</h1>', HTML];
      const payload = fake.payloads[parkId] ?? recordedPayload(parkId);
      return [200, JSON.stringify(options.moving ? movingWaits(payload, Date.now(), parkId, options.crowd) : payload)];
    },
    options.port,
  );
}
