import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { text } from 'node:stream/consumers';

/**
 * The core of the local stand-ins for upstream services: a real HTTP server on 127.0.0.1 that records
 * every request and can be made slow or told to misbehave, around a handler that plays the real service.
 */

/** A file under fixtures/, e.g. `jobs/post-feed.json`. */
export const readFixture = (file: string): string =>
  readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8');

/** An answer: status, body, headers (Content-Type JSON unless given, when there is a body). */
export type Reply = readonly [status: number, body?: string, headers?: Readonly<Record<string, string>>];

export const HTML = { 'Content-Type': 'text/html' };
export const TEXT = { 'Content-Type': 'text/plain' };

/** Canned wrong answers (`oversized` is valid JSON: only a size limit turns it away). */
const CANNED = {
  'error-500': [500, '<h1>Internal Server Error</h1>', HTML],
  'error-503': [503, '<h1>Service Unavailable</h1>', HTML],
  'not-found': [404, '{"error":"not found"}'],
  'html-error': [200, '<html><body>Maintenance</body></html>', HTML],
  'invalid-json': [200, '{"data":[{"id":1,'],
  'wrong-shape': [200, '{"parks":[],"message":"unexpected"}'],
  oversized: [200, `{"lands":[],"rides":[],"padding":"${'x'.repeat(2_600_000)}"}`],
} satisfies Record<string, Reply>;

/** `hang` never answers, `reset` drops the connection, `truncated` drops it in the middle of the body. */
export type FaultMode = 'ok' | 'hang' | 'reset' | 'truncated' | keyof typeof CANNED;

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Set once the answer has been sent. */
  status?: number;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  mode: FaultMode;
  /** Waited before every answer, in milliseconds. */
  delayMs: number;
  /** Answers with `mode` for the next `count` requests, then goes back to `this.mode`. */
  failNext(count: number, mode: FaultMode): void;
  /** Requests received (or answered) so far, to `path` or to any. */
  count(path?: string): number;
  answered(path?: string): number;
  /** Back to `ok`, no delay, no requests recorded, and the fake's own state as it started. */
  reset(): void;
  close(): Promise<void>;
}

export type Fake<State> = FakeServer & State;
/** What `POST /__control` takes: a reset first, then these fields replaced. */
export type FakeControl<State> = Partial<Pick<FakeServer, 'mode' | 'delayMs'> & State> & { reset?: boolean };

/**
 * Starts a fake whose own state (reset to `initial()` by `reset`) lives on the returned object.
 * `POST /__control` takes a FakeControl as JSON, for browser tests that steer the fake from
 * another process without touching the site.
 */
export async function startFake<State extends object>(
  initial: () => State,
  handle: (request: RecordedRequest, fake: Fake<State>) => Reply | Exclude<FaultMode, 'ok'>,
  port = 0,
): Promise<Fake<State>> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await text(req);
    if (url.pathname === '/__control') {
      const { reset, ...change } = JSON.parse(body) as FakeControl<State>;
      if (reset) fake.reset();
      Object.assign(fake, change);
      return void res.writeHead(204).end();
    }
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    };
    fake.requests.push(request);
    res.once('finish', () => {
      request.status = res.statusCode;
    });
    const mode = override.count-- > 0 ? override.mode : fake.mode;
    setTimeout(() => {
      if (!res.destroyed) answer(res, mode === 'ok' ? handle(request, fake) : mode);
    }, fake.delayMs);
  });
  const override = { count: 0, mode: 'ok' as FaultMode };
  const tally = (path: string | undefined, answered: boolean) =>
    fake.requests.filter((r) => (path ?? r.path) === r.path && (!answered || r.status !== undefined)).length;
  await once(server.listen(port, '127.0.0.1'), 'listening');
  const core: FakeServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    mode: 'ok',
    delayMs: 0,
    failNext: (count, mode) => Object.assign(override, { count, mode }),
    count: (path) => tally(path, false),
    answered: (path) => tally(path, true),
    reset: () => {
      Object.assign(fake, { mode: 'ok', delayMs: 0, requests: [] }, initial());
      override.count = 0;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const fake = Object.assign(core, initial());
  return fake;
}

function answer(res: http.ServerResponse, reply: Reply | Exclude<FaultMode, 'ok'>): void {
  if (reply === 'hang') return;
  if (reply === 'truncated')
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4096' }).write('{"lands":[');
  if (reply === 'reset' || reply === 'truncated') return void res.socket?.destroy();
  const [status, body = '', headers = {}]: Reply = typeof reply === 'string' ? CANNED[reply] : reply;
  const type = body ? { 'Content-Type': 'application/json; charset=UTF-8' } : {};
  res.writeHead(status, { ...type, ...headers }).end(body);
}

/** A loopback port nobody listens on right now (connections to it are refused). */
export async function freePort(): Promise<number> {
  const [port = 0] = await freePorts(1);
  return port;
}

/**
 * `count` distinct loopback ports nobody listens on right now, drawn below Linux's ephemeral range
 * (32768–60999): a server elsewhere listening on port 0 (every request-tier server) is never given
 * one of them between this check and their use, as it could be given a released ephemeral port.
 */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.includes(port)) continue;
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await once(server.close(), 'close');
    ports.push(port);
  }
  return ports;
}
