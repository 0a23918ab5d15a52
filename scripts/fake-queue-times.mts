import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minuteOfDay } from '../src/wait-times/local-time.ts';
import { PARKS } from '../src/wait-times/parks.ts';

/**
 * A local stand-in for queue-times.com that replays real recorded payloads (fixtures/queue-times),
 * counts requests, and can be told to misbehave. Used by the tests and by `npm run demo`.
 */
export type UpstreamMode =
  | 'ok'
  | 'error-500'
  | 'not-found'
  | 'html-error'
  | 'invalid-json'
  | 'wrong-shape'
  | 'truncated'
  | 'oversized'
  | 'reset'
  | 'hang';

/** What `POST /__control` accepts (only when started with `control: true`). */
export interface FakeControl {
  mode?: UpstreamMode;
  delayMs?: number;
  /** Payloads by queue-times park id; null restores the recorded one. */
  payloads?: Record<string, unknown>;
  /** Back to `ok`, no delay, recorded payloads. */
  reset?: boolean;
}

export interface FakeQueueTimes {
  url: string;
  /** Requests received per path, e.g. `/parks/5/queue_times.json`. */
  counts: Map<string, number>;
  /** Answers fully sent per path. */
  answered: Map<string, number>;
  total(): number;
  mode: UpstreamMode;
  /** Extra delay before answering, in milliseconds. */
  delayMs: number;
  /** Replaces the payload served for a park id (null restores the recorded one). */
  setPayload(parkId: number, payload: unknown): void;
  /** Every park back to its recorded payload. */
  resetPayloads(): void;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = path.resolve(here, '../fixtures/queue-times');

/** Recorded payloads by the queue-times park id they were captured from. */
export const RECORDED: Readonly<Record<number, string>> = {
  4: 'queue-times-disneyland-paris-01iwier.json',
  5: 'queue-times-epcot-jzxhanta.json',
  7: 'queue-times-hollywood-studios-jzxhanta.json',
  28: 'queue-times-walt-disney-studios-paris-01iwier.json',
  51: 'queue-times-europa-park-open-valentinfrlch.json',
};
const recordedIds = Object.keys(RECORDED).map(Number);

/** The recorded payload for a park; parks without a recording borrow one, so every park has data. */
export function recordedPayload(parkId: number): unknown {
  const file = RECORDED[parkId] ?? RECORDED[recordedIds[parkId % recordedIds.length] as number];
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, file as string), 'utf8'));
}

interface RideLike {
  id: number;
  wait_time: number;
  is_open: boolean;
  last_updated?: string;
}

/**
 * How busy a park is at a local time of day, from 0.15 (night) to 1 (the early-afternoon peak):
 * a slow climb after the morning opening and a long fall towards the evening.
 */
export function dayShape(localMinute: number): number {
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

export interface FakeQueueTimesOptions {
  /** Waits move along a day-shaped curve (for the demo and the soak). */
  moving?: boolean;
  /** With `moving`: how busy today is against a usual day (1, the default, is usual). */
  crowd?: number;
  port?: number;
  /**
   * Test-only: `POST /__control` with a FakeControl body changes mode, delay and payloads from
   * another process (browser tests drive the fake this way; the site itself is never touched).
   */
  control?: boolean;
}

export async function startFakeQueueTimes(options: FakeQueueTimesOptions = {}): Promise<FakeQueueTimes> {
  const overrides = new Map<number, unknown>();
  const counts = new Map<string, number>();
  const answered = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();

  const fake: FakeQueueTimes = {
    url: '',
    counts,
    answered,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    mode: 'ok',
    delayMs: 0,
    setPayload(parkId, payload) {
      if (payload === null) overrides.delete(parkId);
      else overrides.set(parkId, payload);
    },
    resetPayloads: () => overrides.clear(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://fake').pathname;
    if (options.control && pathname === '/__control') {
      await control(fake, req, res);
      return;
    }
    counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
    res.once('finish', () => answered.set(pathname, (answered.get(pathname) ?? 0) + 1));
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    if (res.destroyed) return;
    const match = /^\/parks\/(\d+)\/queue_times\.json$/.exec(pathname);
    if (!match) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    const parkId = Number(match[1]);
    const json = (body: string) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    switch (fake.mode) {
      case 'hang':
        return; // never answers; the client's timeout must fire
      case 'reset':
        req.socket.destroy();
        return;
      case 'error-500':
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'not-found':
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
        return;
      case 'html-error':
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Maintenance</body></html>');
        return;
      case 'invalid-json':
        json('{"lands":[{"id":1,');
        return;
      case 'wrong-shape':
        json(JSON.stringify({ parks: [], message: 'unexpected' }));
        return;
      case 'truncated': {
        const body = JSON.stringify(recordedPayload(parkId));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
        res.write(body.slice(0, Math.floor(body.length / 2)));
        req.socket.destroy();
        return;
      }
      case 'oversized': {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const filler = `{"lands":[],"rides":[],"padding":"${'x'.repeat(64 * 1024)}`;
        for (let i = 0; i < 40 && !res.destroyed; i++) res.write(i === 0 ? filler : 'x'.repeat(64 * 1024));
        res.end('"}');
        return;
      }
      default: {
        const payload = overrides.get(parkId) ?? recordedPayload(parkId);
        json(JSON.stringify(options.moving ? movingWaits(payload, Date.now(), parkId, options.crowd) : payload));
      }
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const MODES: readonly UpstreamMode[] = [
  'ok',
  'error-500',
  'not-found',
  'html-error',
  'invalid-json',
  'wrong-shape',
  'truncated',
  'oversized',
  'reset',
  'hang',
];

/** `POST /__control`: applies a FakeControl and answers the resulting state; `GET` only reads it. */
async function control(fake: FakeQueueTimes, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const answer = (status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  if (req.method === 'POST') {
    let change: FakeControl;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      change = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as FakeControl;
    } catch {
      answer(400, { error: 'invalid JSON' });
      return;
    }
    if (change.mode !== undefined && !MODES.includes(change.mode)) {
      answer(400, { error: `unknown mode, one of ${MODES.join(', ')}` });
      return;
    }
    if (change.reset) {
      fake.mode = 'ok';
      fake.delayMs = 0;
      fake.resetPayloads();
    }
    if (change.mode !== undefined) fake.mode = change.mode;
    if (change.delayMs !== undefined) fake.delayMs = Math.max(0, Number(change.delayMs) || 0);
    for (const [id, payload] of Object.entries(change.payloads ?? {})) fake.setPayload(Number(id), payload);
  } else if (req.method !== 'GET') {
    res.writeHead(405, { Allow: 'GET, POST' }).end();
    return;
  }
  answer(200, { mode: fake.mode, delayMs: fake.delayMs, counts: Object.fromEntries(fake.counts) });
}
