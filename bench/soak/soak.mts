import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PARKS } from '../../src/wait-times/parks.ts';
import { advanceClockOf, askChild, fmt, MEMORY_PROBE, rssMiB, type Served, startServed } from '../served.mts';
import type { FakesStats } from './fakes.mts';
import type { Kind, MixKind } from './kinds.mts';
import { blobsUsage, MiB, memoryOf, type Sample, startFakes } from './metrics.mts';
import { MIX } from './mix.mts';
import { printReport } from './report.mts';
import { agent, quantile, send, setTarget, stats, traffic } from './send.mts';
import {
  args,
  clock,
  DURATION_MS,
  HOUR,
  MINUTE,
  OWNER_TOKEN,
  RATE,
  REQUEST_TIMEOUT_MS,
  random,
  SAMPLE_MS,
  SITE_URL,
  SMTP_OUTAGE,
  SPEED,
  simNow,
  TICK_MS,
} from './setup.mts';
import { contactForm, contactJson, contactSpammer, STREAMS } from './streams.mts';

/**
 * `npm run soak [-- --minutes 10 --rate 300 --speed 30 --seed 1]`: the built site as `npm run serve`
 * starts it, every feature configured against local fakes, under mixed traffic for `--minutes`
 * while its clock runs `--speed` times faster than real time; prints per-endpoint figures, server
 * memory over time and a verdict. A measurement, not a test: it exits 0 unless the harness broke.
 *
 * The parts: soak-setup (options, clock, randomness), soak-kinds and soak-mix (what is sent and
 * what counts as right), soak-streams (the owner, attackers and contact senders), soak-send
 * (sending and counting), soak-metrics (memory, Blobs, fakes), soak-report (the printed report).
 */

const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);
function pickFromMix(): MixKind {
  let left = random() * TOTAL_WEIGHT;
  for (const [weight, kind] of MIX) {
    left -= weight;
    if (left < 0) return kind;
  }
  return (MIX.at(-1) as [number, MixKind])[1];
}

const logLines = { stdout: 0, stderr: 0, problems: new Map<string, number>() };
function onServerLog(line: string, stream: 'stdout' | 'stderr') {
  logLines[stream] += 1;
  // Chatter on stdout: delivered contact mails and honeypots.
  if (stream === 'stdout' && !/\b(warn|error|fail)/i.test(line)) return;
  const key = line
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
    .replace(/\d+/g, 'N')
    .slice(0, 200);
  if (logLines.problems.size < 50 || logLines.problems.has(key)) {
    logLines.problems.set(key, (logLines.problems.get(key) ?? 0) + 1);
  }
}

const fakes = await startFakes();
const env = { ...fakes.env, LOCATION_TOKEN: OWNER_TOKEN, SITE_URL };
let site: Served;
try {
  site = await startServed({
    env,
    preload: [MEMORY_PROBE],
    nodeFlags: [
      ...(args['node-flags'] ?? '').split(' ').filter(Boolean),
      ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : []),
    ],
    onLog: onServerLog,
  });
} catch (error) {
  fakes.child.kill();
  throw error;
}
// If the harness fails half-way, the server and the fakes must not outlive it.
process.on('exit', () => {
  if (site.child.exitCode === null) site.child.kill();
  if (fakes.child.exitCode === null) fakes.child.kill();
});
const url = new URL(site.url);
setTarget(url);

async function advance(ms: number) {
  await Promise.all([site.advanceClock(ms), advanceClockOf(fakes.child, ms)]);
  clock.offsetMs += ms;
}
const fakesStats = () => askChild<FakesStats>(fakes.child, { type: 'stats' }, 'fakes-stats');

// Start the simulated run at 23:40 UTC, so that the daily publish job (00:00), the hourly sharing
// job and, in a 10-minute run, the photo token refresh (03:30) all fall inside it.
{
  const now = Date.now();
  let start = Math.floor(now / (24 * HOUR)) * 24 * HOUR + 23 * HOUR + 40 * MINUTE;
  if (start <= now) start += 24 * HOUR;
  await advance(start - now);
}
const simulatedStart = simNow();
const blobsDir = path.join(site.dataDir, 'blobs');

console.info(
  `# soak: ${fmt(DURATION_MS / MINUTE, 1)} min, ${RATE} req/s mix + owner/attacker/contact streams, clock ${SPEED}x (${fmt((DURATION_MS * SPEED) / HOUR, 1)} simulated hours from ${new Date(simulatedStart).toISOString()}), seed ${args.seed}${args['node-flags'] ? `, server flags ${args['node-flags']}` : ''}`,
);
console.info(
  `server ${site.url} (pid ${site.child.pid}), ready in ${fmt(site.readyMs, 0)} ms; data in ${site.dataDir}\n`,
);

// Warm-up, not measured: each page and park once, as a deployment's first visitors would.
const primed = [
  ...PARKS.map((park) => `/api/wait-times?park=${park.slug}`),
  ...PARKS.map((park) => `/parks/${park.slug}/`),
  ...['/', '/parks/', '/docs/api/', '/docs/openapi.json', '/api/location', '/api/photo-feed'],
  ...['/api/publish-status', '/api/professional-network-status', '/.well-known/api-catalog'],
];
for (const pathname of primed) await (await fetch(`${site.url}${pathname}`)).arrayBuffer();

const blobsAtStart = await blobsUsage(blobsDir);
const samples: Sample[] = [];
const runStarted = performance.now();
let lastSampleRequests = 0;
let lastSampleAt = runStarted;
const harnessLoop = monitorEventLoopDelay({ resolution: 10 });
harnessLoop.enable();

async function takeSample(): Promise<Sample> {
  const heap = await memoryOf(site.child);
  const blobs = await blobsUsage(blobsDir);
  const now = performance.now();
  const sorted = traffic.interval.latencies.sort((a, b) => a - b);
  const sample: Sample = {
    atMs: now - runStarted,
    simulated: simNow(),
    rssMiB: rssMiB(site.child.pid),
    heap,
    blobs: { bytes: blobs.bytes, keys: blobs.keys },
    requests: traffic.interval.requests,
    rps: (traffic.sent - lastSampleRequests) / Math.max(0.001, (now - lastSampleAt) / 1000),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    errors: traffic.interval.errors,
    inFlight: traffic.inFlight,
    harnessLoopMaxMs: harnessLoop.max / 1e6,
  };
  harnessLoop.reset();
  lastSampleRequests = traffic.sent;
  lastSampleAt = now;
  traffic.interval = { latencies: [], errors: 0, requests: 0 };
  samples.push(sample);
  const heapText = heap
    ? `heap ${fmt(heap.heapUsed / MiB)} MiB (after major GC ${heap.heapAfterMajorGc === null ? 'n/a' : fmt(heap.heapAfterMajorGc / MiB)}), GC ${fmt(heap.gc.pauseMs, 0)} ms (max ${fmt(heap.gc.maxPauseMs, 0)}), CPU ${fmt(heap.cpuPercent, 0)} %, loop max ${fmt(heap.loop.maxMs, 0)} ms`
    : 'heap n/a';
  console.info(
    `  ${fmt(sample.atMs / 1000, 0).padStart(4)} s  sim ${new Date(sample.simulated).toISOString().slice(11, 16)}  ${fmt(sample.rps, 0)} req/s  p99 ${fmt(sample.p99, 1)} ms  errors ${sample.errors}  RSS ${sample.rssMiB === undefined ? 'n/a' : fmt(sample.rssMiB)} MiB  ${heapText}  blobs ${fmt(blobs.bytes / 1024, 0)} KiB/${blobs.keys} keys  harness loop max ${fmt(sample.harnessLoopMaxMs, 0)} ms`,
  );
  return sample;
}

await takeSample();

// Traffic: the weighted mix at RATE per second, and the fixed streams.
let issuedFromMix = 0;
const mixTimer = setInterval(() => {
  const due = Math.floor(((performance.now() - runStarted) / 1000) * RATE) - issuedFromMix;
  for (let i = 0; i < due; i++) {
    const kind = pickFromMix();
    send(kind, kind.make());
  }
  issuedFromMix += Math.max(0, due);
}, 10);
const streamTimers = STREAMS.map((stream) =>
  setInterval(() => {
    const { kind, shot } = stream.next();
    send(kind, shot);
  }, stream.everyMs),
);

// The clock: SPEED simulated seconds per real second; a new post every simulated hour; SMTP outages.
let ticking = false;
let smtpFailing = false;
let smtpOutages = 0;
let postsPublished = 0;
const setSmtpFailing = async (failing: boolean) => {
  if (failing === smtpFailing) return;
  smtpFailing = failing;
  if (failing) smtpOutages += 1;
  await askChild(fakes.child, { type: 'smtp-failing', failing }, 'smtp-failing-set');
};
const clockTimer = setInterval(async () => {
  if (ticking) return;
  ticking = true;
  try {
    const hourBefore = Math.floor(simNow() / HOUR);
    await advance(TICK_MS * SPEED);
    if (Math.floor(simNow() / HOUR) !== hourBefore) {
      postsPublished += 1;
      await askChild(fakes.child, { type: 'publish-post' }, 'post-published');
    }
    const elapsed = performance.now() - runStarted;
    const phase = elapsed - SMTP_OUTAGE.firstAtMs;
    const inOutage =
      elapsed < DURATION_MS * SMTP_OUTAGE.untilShare &&
      phase >= 0 &&
      phase % SMTP_OUTAGE.everyMs < SMTP_OUTAGE.lastingMs;
    await setSmtpFailing(inOutage);
  } finally {
    ticking = false;
  }
}, TICK_MS);

let sampling: Promise<unknown> = Promise.resolve();
const sampleTimer = setInterval(() => {
  sampling = takeSample();
}, SAMPLE_MS);

await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
clearInterval(mixTimer);
for (const timer of streamTimers) clearInterval(timer);
clearInterval(sampleTimer);
await sampling;
const drainStarted = performance.now();
while (traffic.inFlight > 0 && performance.now() - drainStarted < REQUEST_TIMEOUT_MS) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await takeSample();
const trafficMs = performance.now() - runStarted;

// The contact outbox: everything answered 200/202 must reach the SMTP server; the retry job runs
// every 5 simulated minutes, so keep the clock going (SMTP healthy) until it has or a minute passed.
await setSmtpFailing(false);
const accepted = (kind: Kind, statuses: number[]) =>
  statuses.reduce((sum, status) => sum + (stats.get(kind.name)?.statuses.get(status) ?? 0), 0);
const contactsAccepted =
  accepted(contactJson, [200, 202]) + accepted(contactForm, [303]) + accepted(contactSpammer, [200, 202]);
const contactsQueued = accepted(contactJson, [202]) + accepted(contactSpammer, [202]);
const outboxDrainStarted = performance.now();
let fakesAtEnd = await fakesStats();
while (fakesAtEnd.distinctMessageIds < contactsAccepted && performance.now() - outboxDrainStarted < 60_000) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  fakesAtEnd = await fakesStats();
}
const outboxDrainMs = performance.now() - outboxDrainStarted;
clearInterval(clockTimer);
while (ticking) await new Promise((resolve) => setTimeout(resolve, 20));

// The job status endpoints as a visitor sees them at the end (past their 60 s cache).
await advance(3 * MINUTE);
const statusBody = async (pathname: string) =>
  (await fetch(`${site.url}${pathname}`)).json() as Promise<Record<string, unknown>>;
const [publishStatus, networkStatus, photoFeed] = await Promise.all([
  statusBody('/api/publish-status'),
  statusBody('/api/professional-network-status'),
  statusBody('/api/photo-feed'),
]);
const blobsAtEnd = await blobsUsage(blobsDir);
const finalRss = rssMiB(site.child.pid);
agent.destroy();
const stopStarted = performance.now();
const exitCode = await site.stop();
const stopMs = performance.now() - stopStarted;
fakes.child.send({ type: 'stop' });
await new Promise((resolve) => {
  fakes.child.once('exit', resolve);
  setTimeout(() => {
    fakes.child.kill();
    resolve(undefined);
  }, 3000).unref();
});

printReport({
  trafficMs,
  samples,
  blobsAtStart,
  blobsAtEnd,
  fakesAtEnd,
  simulatedStart,
  contactsAccepted,
  contactsQueued,
  smtpOutages,
  outboxDrainMs,
  postsPublished,
  publishStatus,
  networkStatus,
  photoFeed,
  logLines,
  exitCode,
  stopMs,
  finalRss,
});
process.exit(0);
