import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type FakeQueueTimes, startFakeQueueTimes } from '../scripts/fake-queue-times.mts';
import { PARKS } from '../src/wait-times/parks.ts';
import { coldStart } from './cold-start/cold-start.mts';
import type { LoadResult } from './load.mts';
import { fmt, peakRssMiB, ROOT as root, startServed as serve } from './served.mts';

/**
 * `npm run bench [hot|fan-in|slow-upstream|cold-start]…`: measurements on loopback, bounded in time, printed
 * as ratios against a baseline measured in the same run. Never fails on a timing.
 *  - hot: cached GET /api/wait-times through `npm run serve` against plain node:http with the same bytes
 *  - fan-in: 200 clients for 60 s across all 17 parks while the server's clock runs 12x fast
 *  - slow-upstream: the upstream takes 10 s; latency of requests while the data revalidates
 *  - cold-start: the Netlify build's zipped functions and their first answer (bench/cold-start/cold-start.mts)
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const MINUTE = 60_000;
const PATH = '/api/wait-times?park=epcot';

/** The built site as `npm run serve` starts it, against the fake upstream, clock preloaded. */
const startServed = (upstream: FakeQueueTimes) => serve({ env: { WAIT_TIMES_UPSTREAM_URL: upstream.url } });

function load(urls: string[], connections: number, durationMs: number, headers: Record<string, string> = {}) {
  const child = fork(path.join(root, 'bench/load.mts'), [], { stdio: 'inherit' });
  return new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.send({ urls, connections, durationMs, headers });
  });
}

const header = () => {
  console.info('| target | req/s | p50 ms | p99 ms | max ms | errors | statuses | peak RSS MiB |');
  console.info('|---|---|---|---|---|---|---|---|');
};
const row = (name: string, r: LoadResult, rss?: number) =>
  console.info(
    `| ${name} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.max, 1)} | ${r.errors} | ${JSON.stringify(r.statuses)} | ${rss === undefined ? 'n/a' : fmt(rss)} |`,
  );

async function hot(): Promise<void> {
  const upstream = await startFakeQueueTimes();
  const site = await startServed(upstream);
  await fetch(`${site.url}${PATH}`);
  const sample = await fetch(`${site.url}${PATH}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const headers: Record<string, string> = {};
  sample.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
  });
  const baseline = http.createServer((_req, res) => res.writeHead(200, headers).end(body));
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}${PATH}`;

  console.info(`\n## hot: cached GET ${PATH}, 32 connections, ${SECONDS} s each, ${body.length}-byte body\n`);
  const plain = await load([baselineUrl], 32, SECONDS * 1000);
  const served = await load([`${site.url}${PATH}`], 32, SECONDS * 1000);
  const rss = peakRssMiB(site.child.pid);
  const conditional = await load([`${site.url}${PATH}`], 32, SECONDS * 1000, { 'If-None-Match': headers.etag ?? '' });
  header();
  row('plain node:http, same bytes', plain);
  row('npm run serve, 200', served, rss);
  row('npm run serve, 304 (If-None-Match)', conditional);
  console.info(`\nthroughput ratio (served / plain): **${fmt(served.rps / plain.rps, 3)}**`);
  console.info(
    `p50 ratio (plain / served): ${fmt(plain.p50 / served.p50, 3)}; p99 ratio: ${fmt(plain.p99 / served.p99, 3)}`,
  );
  console.info(
    `ready after start: ${fmt(site.readyMs, 0)} ms (process start to listening); upstream requests: ${upstream.total()}`,
  );
  baseline.close();
  await site.stop();
  await upstream.close();
}

async function fanIn(): Promise<void> {
  const SIM_MINUTES_PER_STEP = 1;
  const STEP_MS = 5_000;
  const DURATION_MS = 60_000;
  const upstream = await startFakeQueueTimes();
  const site = await startServed(upstream);
  const urls = PARKS.map((park) => `${site.url}/api/wait-times?park=${park.slug}`);
  console.info(
    `\n## fan-in: 200 clients, ${DURATION_MS / 1000} s, all ${PARKS.length} parks; the server's clock gains ${SIM_MINUTES_PER_STEP} min every ${STEP_MS / 1000} s (${(DURATION_MS / STEP_MS) * SIM_MINUTES_PER_STEP} simulated minutes)\n`,
  );
  // Upstream requests per park per simulated 5-minute window.
  const windows: Map<string, number>[] = [new Map()];
  let simulatedMinutes = 0;
  const snapshot = () => new Map(upstream.counts);
  let before = snapshot();
  const ticker = setInterval(async () => {
    await site.advanceClock(SIM_MINUTES_PER_STEP * MINUTE);
    simulatedMinutes += SIM_MINUTES_PER_STEP;
    if (simulatedMinutes % 5 === 0) {
      const now = snapshot();
      const delta = new Map([...now].map(([key, n]) => [key, n - (before.get(key) ?? 0)]));
      windows[windows.length - 1] = delta;
      windows.push(new Map());
      before = now;
    }
  }, STEP_MS);
  const result = await load(urls, 200, DURATION_MS);
  clearInterval(ticker);
  const rss = peakRssMiB(site.child.pid);
  const last = new Map([...snapshot()].map(([key, n]) => [key, n - (before.get(key) ?? 0)]));
  windows[windows.length - 1] = last;
  header();
  row('npm run serve, 17 parks', result, rss);
  const perWindowMax = windows.map((window) => Math.max(0, ...window.values()));
  console.info(`\nupstream requests in total: ${upstream.total()} for ${result.requests} client requests`);
  console.info(`most upstream requests for one park in each 5-minute window: ${perWindowMax.join(', ')} (limit 1)`);
  await site.stop();
  await upstream.close();
}

async function slowUpstream(): Promise<void> {
  const upstream = await startFakeQueueTimes();
  const site = await startServed(upstream);
  const url = `${site.url}${PATH}`;
  await fetch(url);
  // A fast baseline of the filled cache, then the same load while a 10 s upstream revalidates.
  const filled = await load([url], 32, SECONDS * 1000);
  upstream.delayMs = 10_000;
  await site.advanceClock(6 * MINUTE);
  const during = await load([url], 32, 10_000);
  console.info('\n## slow-upstream: upstream answers after 10 s; data 6 minutes old (stale-while-revalidate)\n');
  header();
  row('fresh cache, fast upstream', filled);
  row('revalidating against a 10 s upstream', during, peakRssMiB(site.child.pid));
  console.info(
    `\np99 during revalidation: **${fmt(during.p99, 2)} ms** (target < 20 ms); upstream requests: ${upstream.total()}`,
  );
  upstream.delayMs = 0;
  await site.stop();
  await upstream.close();
}

const scenarios: Record<string, () => Promise<void>> = {
  hot,
  'fan-in': fanIn,
  'slow-upstream': slowUpstream,
  'cold-start': coldStart,
};
const chosen = process.argv.slice(2).filter((name) => name in scenarios);
for (const name of chosen.length > 0 ? chosen : Object.keys(scenarios))
  await (scenarios[name] as () => Promise<void>)();
