import http from 'node:http';
import { etags, type Kind, type Shot } from './kinds.mts';
import { MAX_IN_FLIGHT, REQUEST_TIMEOUT_MS, random } from './setup.mts';

/** Sending the soak's requests and counting what came back, per kind of request. */

export class KindStats {
  count = 0;
  statuses = new Map<number, number>();
  latencies: number[] = [];
  networkErrors = new Map<string, number>();
  unexpected = 0;
  serverErrors = 0;
  badBodies = 0;
  examples: string[] = [];
  readonly kind: Kind;
  constructor(kind: Kind) {
    this.kind = kind;
  }
  get errors() {
    return [...this.networkErrors.values()].reduce((a, b) => a + b, 0) + this.unexpected + this.badBodies;
  }
  example(text: string) {
    if (this.examples.length < 3) this.examples.push(text);
  }
}

export const stats = new Map<string, KindStats>();
export const statsOf = (kind: Kind) => {
  let entry = stats.get(kind.name);
  if (!entry) {
    entry = new KindStats(kind);
    stats.set(kind.name, entry);
  }
  return entry;
};
/** What the harness sent: the current sampling window (latencies and errors of all requests) and counters. */
export const traffic = {
  interval: { latencies: [] as number[], errors: 0, requests: 0 },
  inFlight: 0,
  skipped: 0,
  sent: 0,
};

// With a timeout of its own, the agent honours the server's `Keep-Alive: timeout=5` hint and retires
// idle sockets before the server closes them (without one, Node's agent ignores the hint, and a
// request sent just as the server closes an idle socket fails with ECONNRESET: the client's race).
export const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: REQUEST_TIMEOUT_MS });
let target: { host: string; port: number };
/** Where `send` sends to: the served site. */
export const setTarget = (site: URL) => {
  target = { host: site.hostname, port: Number(site.port) };
};

export function send(kind: Kind, shot: Shot): void {
  if (traffic.inFlight >= MAX_IN_FLIGHT) {
    traffic.skipped += 1;
    return;
  }
  traffic.inFlight += 1;
  traffic.sent += 1;
  const entry = statsOf(kind);
  const started = performance.now();
  let settled = false;
  const settle = (outcome: { status: number; body: Buffer } | { error: string }) => {
    if (settled) return;
    settled = true;
    traffic.inFlight -= 1;
    const latency = performance.now() - started;
    entry.count += 1;
    traffic.interval.requests += 1;
    if ('error' in outcome) {
      entry.networkErrors.set(outcome.error, (entry.networkErrors.get(outcome.error) ?? 0) + 1);
      entry.example(`${shot.method} ${shot.path}: ${outcome.error}`);
      traffic.interval.errors += 1;
      return;
    }
    const { status, body } = outcome;
    entry.latencies.push(latency);
    traffic.interval.latencies.push(latency);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    if (status >= 500) entry.serverErrors += 1;
    if (!kind.expected.includes(status)) {
      entry.unexpected += 1;
      traffic.interval.errors += 1;
      entry.example(`${shot.method} ${shot.path} → ${status} ${body.toString('utf8').slice(0, 160)}`);
      return;
    }
    if (kind.check && random() < (kind.checkShare ?? 1)) {
      const problem = kind.check(status, body);
      if (problem) {
        entry.badBodies += 1;
        traffic.interval.errors += 1;
        entry.example(`${shot.method} ${shot.path} → ${status}: ${problem}`);
      }
    }
  };
  const headers: Record<string, string> = { ...shot.headers };
  if (shot.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(shot.body));
  const request = http.request(
    {
      host: target.host,
      port: target.port,
      method: shot.method,
      path: shot.path,
      headers,
      agent,
      ...(shot.localAddress ? { localAddress: shot.localAddress } : {}),
      timeout: REQUEST_TIMEOUT_MS,
    },
    (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const etag = response.headers.etag;
        if (response.statusCode === 200 && typeof etag === 'string' && shot.method === 'GET')
          etags.set(shot.path, etag);
        settle({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      response.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    },
  );
  request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
  request.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
  request.end(shot.body);
}

export const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
