import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeQueueTimes } from '../scripts/fake-queue-times.mts';
import type { LoadResult } from './load.mts';

/**
 * `npm run bench`: the hot cached GET /api/wait-times through the production local server
 * (`npm run serve`), against a plain node:http server answering the same bytes, in the same run.
 * Prints ratios; never fails on a timing. Loopback only, bounded in time.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PATH = '/api/wait-times?park=epcot';

function load(url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  const child = fork(path.join(root, 'bench/load.mts'), [], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.send({ url, connections: CONNECTIONS, durationMs: DURATION_MS, headers });
  });
}

/** Peak resident memory (VmHWM) of a process, in MiB; Linux only. */
function peakRssMiB(pid: number | undefined): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function startServed(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const child = fork(path.join(root, 'server/main.mts'), [], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child, readyMs: performance.now() - started };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const row = (name: string, r: LoadResult, rss?: number) =>
  `| ${name} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors} | ${rss === undefined ? 'n/a' : fmt(rss)} |`;

const upstream = await startFakeQueueTimes();
const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-bench-'));
const site = await startServed({ WAIT_TIMES_UPSTREAM_URL: upstream.url, DATA_DIR: dataDir });

// The exact bytes and headers of a hot cached answer, for the baseline to repeat.
await fetch(`${site.url}${PATH}`);
const sample = await fetch(`${site.url}${PATH}`);
const body = Buffer.from(await sample.arrayBuffer());
const headers: Record<string, string> = {};
sample.headers.forEach((value, name) => {
  if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-astro-cache'].includes(name)) headers[name] = value;
});
headers['content-length'] = String(body.length);

const baseline = http.createServer((_req, res) => res.writeHead(200, headers).end(body));
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;

console.info(
  `Hot cached GET ${PATH}: ${CONNECTIONS} connections, ${DURATION_MS / 1000} s each, ${body.length}-byte body\n`,
);
const plain = await load(`${baselineUrl}${PATH}`);
const served = await load(`${site.url}${PATH}`);
const servedRss = peakRssMiB(site.child.pid);
const etag = sample.headers.get('etag') ?? '';
const conditional = await load(`${site.url}${PATH}`, { 'If-None-Match': etag });

console.info('| target | req/s | p50 ms | p99 ms | errors | peak RSS MiB |');
console.info('|---|---|---|---|---|---|');
console.info(row('plain node:http, same bytes', plain));
console.info(row('npm run serve, 200', served, servedRss));
console.info(row('npm run serve, 304 (If-None-Match)', conditional));
console.info('');
console.info(`throughput ratio (served / plain): ${fmt(served.rps / plain.rps, 3)}`);
console.info(`p50 latency ratio (plain / served): ${fmt(plain.p50 / served.p50, 3)}`);
console.info(`p99 latency ratio (plain / served): ${fmt(plain.p99 / served.p99, 3)}`);
console.info(`ready after start: ${fmt(site.readyMs, 0)} ms (process start to listening)`);
console.info(`upstream requests during the run: ${upstream.total()}`);

site.child.kill('SIGTERM');
await new Promise((resolve) => site.child.once('exit', resolve));
baseline.close();
await upstream.close();
await rm(dataDir, { recursive: true, force: true });
