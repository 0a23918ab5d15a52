import { startFakeQueueTimes } from '../scripts/fake-queue-times.mts';
import { PARKS } from '../src/wait-times/parks.ts';
import { BUILT_SITE_URL, startServedSite } from '../tests/support/served-site.ts';

/**
 * `npm run soak [-- minutes]`: mixed traffic against the built site on loopback for a few minutes
 * (3 by default) while its clock runs 30 times fast, so that caches expire and history fills as in
 * hours of use. Finds errors (an answer outside its kind's statuses, a network error) and memory
 * growth (the heap the server keeps after a full collection, every 10 s). Exits 1 on an error.
 */
const MINUTES = Number(process.argv[2] ?? 3);
const CLIENTS = 8;
const SPEED = 30;

interface Kind {
  path: () => string;
  ok: number[];
  init?: RequestInit;
}
const pick = <T,>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)] as T;
const park = () => pick(PARKS).slug;
const get = (path: () => string, ok = [200]): Kind => ({ path, ok });
const post = (path: string, body: string, type: string, ok: number[]): Kind => ({
  path: () => path,
  ok,
  init: { method: 'POST', body, headers: { 'Content-Type': type } },
});
/** Wait times most often (some with a tracking query), then everything else a visitor or a client meets. */
const KINDS: Kind[] = [
  ...Array.from({ length: 8 }, () => get(() => `/api/wait-times?park=${park()}`)),
  get(() => `/api/wait-times?park=${park()}&utm_source=soak`),
  get(() => `/api/wait-times/history?park=${park()}`),
  ...['/', '/parks/', '/docs/api/', '/docs/openapi.json', '/.well-known/api-catalog'].map((path) => get(() => path)),
  get(() => `/parks/${park()}`),
  ...['/api/location', '/api/photo-feed', '/api/publish-status', '/api/professional-network-status'].map((path) =>
    get(() => path),
  ),
  get(() => '/api/wait-times?park=nowhere', [404]),
  get(() => '/api/wait-times', [400]),
  get(() => '/api/nothing', [404]),
  post('/api/wait-times', '{}', 'application/json', [405]),
  post('/api/location', '{}', 'application/json', [401, 429]),
  post('/api/contact', 'x'.repeat(200_000), 'application/json', [413, 429]),
  post('/api/contact', 'a=b', 'text/plain', [415, 429]),
];

const upstream = await startFakeQueueTimes({ moving: true });
const env = { WAIT_TIMES_UPSTREAM_URL: upstream.url, SITE_URL: BUILT_SITE_URL };
const site = await startServedSite({ env, clock: true });
const latencies: number[] = [];
const errors = new Map<string, number>();
const heap: { at: number; mib: number }[] = [];
const started = performance.now();
const deadline = started + MINUTES * 60_000;

const clock = setInterval(() => site.advanceClock(2_000 * SPEED), 2_000);
const sampler = setInterval(async () => heap.push({ at: performance.now(), mib: await site.heapMiB() }), 10_000);
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < deadline) {
      const kind = pick(KINDS);
      const path = kind.path();
      const sent = performance.now();
      const status = await fetch(`${site.url}${path}`, kind.init)
        .then(async (response) => (await response.arrayBuffer()) && response.status)
        .catch(() => 0);
      latencies.push(performance.now() - sent);
      if (!kind.ok.includes(status)) {
        const key = `${kind.init?.method ?? 'GET'} ${path.split('?')[0]} → ${status || 'network error'}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    }
  }),
);
clearInterval(clock);
clearInterval(sampler);
heap.push({ at: performance.now(), mib: await site.heapMiB() });
// What the server wrote after its "listening on" line.
const log = site.output().trim().split('\n').slice(1);
await site.stop();
await upstream.close();

const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1);
// The first minute warms up (caches, history, V8); growth is read over the second half.
const middle = heap[Math.floor(heap.length / 2)] ?? { at: 0, mib: 0 };
const last = heap.at(-1) ?? middle;
const slope = (last.mib - middle.mib) / Math.max(1e-9, (last.at - middle.at) / 60_000);
const errorCount = [...errors.values()].reduce((sum, n) => sum + n, 0);
const simulated = (seconds * SPEED) / 60;
console.info(
  `\n## soak: ${MINUTES} min, ${CLIENTS} visitors, the server's clock ${SPEED}× fast (${simulated.toFixed(0)} simulated minutes)\n`,
);
console.info('| figure | result |\n|---|---|');
console.info(
  `| requests | ${latencies.length} (${(latencies.length / seconds).toFixed(0)}/s), **${errorCount} errors** |`,
);
console.info(`| latency ms | p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)} |`);
const heapRow = heap.map((sample) => sample.mib.toFixed(1)).join(' → ');
console.info(`| heap kept after a full collection, MiB | ${heapRow}; second half ${slope.toFixed(2)} MiB/min |`);
const bound = PARKS.length * Math.ceil(simulated / 5 + 1);
console.info(`| upstream requests | ${upstream.count()} (one per park per 5 simulated minutes: at most ${bound}) |`);
console.info(`| server log | ${log.length} lines${log.length ? `, first: ${log[0]}` : ''} |`);
for (const [key, n] of errors) console.info(`error: ${n} × ${key}`);
process.exitCode = errorCount > 0 ? 1 : 0;
