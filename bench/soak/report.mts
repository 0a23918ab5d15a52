import { PARKS } from '../../src/wait-times/parks.ts';
import { fmt } from '../served.mts';
import type { FakesStats } from './fakes.mts';
import { locations, waits } from './kinds.mts';
import { type BlobsUsage, MiB, type Sample, slope } from './metrics.mts';
import { quantile, stats, traffic } from './send.mts';
import { MAX_IN_FLIGHT, MINUTE, SMTP_OUTAGE, simNow, WARM_UP_SHARE } from './setup.mts';

/** Server log lines the soak provokes on purpose. */
const EXPECTED_LOG = [{ pattern: /^contact: message \S+ not sent \(attempt/, why: 'during an SMTP outage' }];

/** What the run hands to the report besides the per-kind statistics. */
export interface RunFigures {
  trafficMs: number;
  samples: Sample[];
  blobsAtStart: BlobsUsage;
  blobsAtEnd: BlobsUsage;
  fakesAtEnd: FakesStats;
  simulatedStart: number;
  contactsAccepted: number;
  contactsQueued: number;
  smtpOutages: number;
  outboxDrainMs: number;
  postsPublished: number;
  publishStatus: Record<string, unknown>;
  networkStatus: Record<string, unknown>;
  photoFeed: Record<string, unknown>;
  logLines: { stdout: number; stderr: number; problems: Map<string, number> };
  exitCode: number | null;
  stopMs: number;
  finalRss: number | undefined;
}

/** Prints the soak's report (Markdown): requests by kind, memory and Blobs over time, the verdicts. */
export function printReport(run: RunFigures): void {
  const { sent, skipped } = traffic;
  const all = [...stats.values()];
  const totalRequests = all.reduce((sum, entry) => sum + entry.count, 0);
  const totalErrors = all.reduce((sum, entry) => sum + entry.errors, 0);
  const totalServerErrors = all.reduce((sum, entry) => sum + entry.serverErrors, 0);
  const totalNetwork = all.reduce(
    (sum, entry) => sum + [...entry.networkErrors.values()].reduce((a, b) => a + b, 0),
    0,
  );
  const allLatencies = all.flatMap((entry) => entry.latencies).sort((a, b) => a - b);

  console.info(`\n## Requests by kind (${fmt(run.trafficMs / 1000, 0)} s of traffic)\n`);
  console.info('| request | count | statuses | expected | p50 ms | p99 ms | max ms | errors |');
  console.info('|---|---:|---|---|---:|---:|---:|---:|');
  for (const entry of all.sort((a, b) => b.count - a.count)) {
    const sorted = entry.latencies.sort((a, b) => a - b);
    const statuses = [...entry.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    const network = [...entry.networkErrors].map(([code, n]) => `${code}: ${n}`);
    console.info(
      `| ${entry.kind.name} | ${entry.count} | ${[...statuses, ...network].join(', ')} | ${entry.kind.expected.join('/')} | ${fmt(quantile(sorted, 0.5), 2)} | ${fmt(quantile(sorted, 0.99), 2)} | ${fmt(sorted.at(-1) ?? Number.NaN, 1)} | ${entry.errors} |`,
    );
  }
  console.info(
    `| **all** | **${totalRequests}** | | | ${fmt(quantile(allLatencies, 0.5), 2)} | ${fmt(quantile(allLatencies, 0.99), 2)} | ${fmt(allLatencies.at(-1) ?? Number.NaN, 1)} | **${totalErrors}** |`,
  );
  const problems = all.filter((entry) => entry.examples.length > 0);
  if (problems.length > 0) {
    console.info('\nExamples of errors:');
    for (const entry of problems)
      for (const example of entry.examples) console.info(`- ${entry.kind.name}: ${example}`);
  }

  console.info('\n## Server memory and Blobs data over time\n');
  console.info(
    '| t s | simulated (UTC) | req/s | p50 ms | p99 ms | errors | server CPU % | server loop p99 / max ms | harness loop max ms | RSS MiB | GC pauses ms (max) | heap used / total MiB | heap after major GC MiB | external MiB | Blobs KiB | Blobs keys |',
  );
  console.info('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const sample of run.samples) {
    const h = sample.heap;
    console.info(
      `| ${fmt(sample.atMs / 1000, 0)} | ${new Date(sample.simulated).toISOString().slice(0, 16).replace('T', ' ')} | ${fmt(sample.rps, 0)} | ${fmt(sample.p50, 2)} | ${fmt(sample.p99, 2)} | ${sample.errors} | ${h ? fmt(h.cpuPercent, 0) : 'n/a'} | ${h ? `${fmt(h.loop.p99Ms, 0)} / ${fmt(h.loop.maxMs, 0)}` : 'n/a'} | ${fmt(sample.harnessLoopMaxMs, 0)} | ${sample.rssMiB === undefined ? 'n/a' : fmt(sample.rssMiB)} | ${h ? `${fmt(h.gc.pauseMs, 0)} (${fmt(h.gc.maxPauseMs, 0)})` : 'n/a'} | ${h ? `${fmt(h.heapUsed / MiB)} / ${fmt(h.heapTotal / MiB)}` : 'n/a'} | ${h?.heapAfterMajorGc ? fmt(h.heapAfterMajorGc / MiB) : 'n/a'} | ${h ? fmt(h.external / MiB) : 'n/a'} | ${fmt(sample.blobs.bytes / 1024, 0)} | ${sample.blobs.keys} |`,
    );
  }

  const afterWarmUp = run.samples.filter((sample) => sample.atMs >= run.trafficMs * WARM_UP_SHARE);
  const series = (value: (sample: Sample) => number | undefined | null) =>
    afterWarmUp.flatMap((sample): [number, number][] => {
      const y = value(sample);
      return y === undefined || y === null ? [] : [[sample.atMs / MINUTE, y]];
    });
  const rssSeries = series((sample) => sample.rssMiB);
  const heapSeries = series((sample) =>
    (sample.heap?.heapAfterMajorGc ?? null) === null ? null : (sample.heap?.heapAfterMajorGc as number) / MiB,
  );
  const range = (points: [number, number][]) =>
    points.length === 0 ? Number.NaN : Math.max(...points.map(([, y]) => y)) - Math.min(...points.map(([, y]) => y));
  const rssStart = run.samples[0]?.rssMiB;
  /**
   * Lowest and highest RSS in each third of the run. RSS follows V8's heap size, which grows between
   * major collections and shrinks after them, so a peak says little; a leak lifts the lows too.
   */
  const rssPerThird = [0, 1, 2].map((third) => {
    const values = run.samples
      .filter(
        (sample) => sample.atMs >= (run.trafficMs * third) / 3 && sample.atMs <= (run.trafficMs * (third + 1)) / 3,
      )
      .flatMap((sample) => (sample.rssMiB === undefined ? [] : [sample.rssMiB]));
    return `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}`;
  });
  const heapSlope = slope(heapSeries);
  const heapMean = heapSeries.reduce((sum, [, y]) => sum + y, 0) / Math.max(1, heapSeries.length);
  const measuredMinutes = (run.trafficMs * (1 - WARM_UP_SHARE)) / MINUTE;
  // Flat: at this slope, the retained heap would grow by less than 10 % of itself (or 5 MiB) over the measured part.
  const heapFlat = Math.abs(heapSlope * measuredMinutes) < Math.max(5, heapMean * 0.1);
  const majorGcs = afterWarmUp.reduce((sum, sample) => sum + (sample.heap?.gc.majors ?? 0), 0);
  const heapVerdict = majorGcs < 3 ? 'not judged (fewer than 3 major GCs)' : heapFlat ? 'flat' : 'GROWS';

  console.info('\n## Around the traffic\n');
  console.info(
    `- Blobs data: ${fmt(run.blobsAtStart.bytes / 1024, 0)} KiB in ${run.blobsAtStart.keys} keys at the start, ${fmt(run.blobsAtEnd.bytes / 1024, 0)} KiB in ${run.blobsAtEnd.keys} keys at the end: ${[
      ...run.blobsAtEnd.byStore,
    ]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([store, n]) => `${store} ${n}`)
      .join(', ')}`,
  );
  console.info(
    `- Upstream: ${run.fakesAtEnd.upstreamRequests} queue-times requests over ${run.fakesAtEnd.upstreamPaths} parks in ${fmt((simNow() - run.simulatedStart) / MINUTE, 0)} simulated minutes (one per park per 5-minute window at most would be ${PARKS.length * Math.ceil((simNow() - run.simulatedStart) / (5 * MINUTE))}); ${run.fakesAtEnd.photoMediaRequests} photo feed requests`,
  );
  console.info(
    `- Sampled wait-time answers: ${waits.bodies} bodies, oldest data ${fmt(waits.maxAgeMs / MINUTE, 1)} simulated minutes; of ${waits.rides} rides ${waits.up} trending up, ${waits.down} down, ${waits.forecastMoved} with a forecast other than the current wait`,
  );
  console.info(`- Sampled GET /api/location answers: ${locations.live} live, ${locations.stale} stale`);
  console.info(
    `- Contact: ${run.contactsAccepted} messages accepted (${run.contactsQueued} answered 202 during ${run.smtpOutages} SMTP outages of ${SMTP_OUTAGE.lastingMs / 1000} s), ${run.fakesAtEnd.distinctMessageIds} distinct messages received by the SMTP server (${run.fakesAtEnd.mails} mails) after ${fmt(run.outboxDrainMs / 1000, 0)} s of draining`,
  );
  console.info(
    `- Jobs: ${run.fakesAtEnd.builds} build hook calls (daily publish), ${run.fakesAtEnd.sharedPosts} posts shared of ${run.postsPublished + 1} published (hourly), ${run.fakesAtEnd.photoTokensIssued} photo tokens refreshed (daily at 03:30)`,
  );
  console.info(
    `- Status at the end: publish ${run.publishStatus.status} (${(run.publishStatus.lastRun as { message?: string } | null)?.message ?? 'no run'}); network ${run.networkStatus.status} (${(run.networkStatus.lastShare as { message?: string } | null)?.message ?? 'no share'}); photo feed ${(run.photoFeed.items as unknown[] | undefined)?.length ?? 0} items`,
  );
  console.info(
    `- Server log: ${run.logLines.stdout} stdout lines, ${run.logLines.stderr} stderr lines${run.logLines.problems.size > 0 ? '; warnings and errors:' : ', no warnings or errors'}`,
  );
  let unexpectedLogLines = 0;
  for (const [line, n] of run.logLines.problems) {
    const expected = EXPECTED_LOG.find(({ pattern }) => pattern.test(line));
    if (!expected) unexpectedLogLines += n;
    console.info(`  - ${n}× ${line}${expected ? ` (expected: ${expected.why})` : ' (UNEXPECTED)'}`);
  }
  console.info(`- Harness: ${sent} requests sent, ${skipped} not sent because ${MAX_IN_FLIGHT} were in flight`);
  console.info(`- Stop: SIGTERM → exit code ${run.exitCode} in ${fmt(run.stopMs, 0)} ms`);

  const verdictErrors =
    totalErrors === 0
      ? 'no errors'
      : `${totalErrors} errors (${totalNetwork} network, ${totalServerErrors} 5xx, the rest unexpected statuses or bodies)`;
  console.info(
    `\n**Verdict: ${verdictErrors}** in ${totalRequests} requests; ${unexpectedLogLines} unexpected server log lines.`,
  );
  console.info(
    `**Memory: retained heap ${heapVerdict}**: after the ${majorGcs} major GCs past warm-up (the first ${fmt(WARM_UP_SHARE * 100, 0)} %), ${fmt(heapMean)} MiB on average, slope ${fmt(heapSlope, 2)} MiB/min, range ${fmt(range(heapSeries))} MiB. RSS ${rssStart === undefined ? 'n/a' : fmt(rssStart)} → ${run.finalRss === undefined ? 'n/a' : fmt(run.finalRss)} MiB: slope after warm-up ${fmt(slope(rssSeries), 2)} MiB/min, range ${fmt(range(rssSeries))} MiB, per third of the run ${rssPerThird.join(' / ')} MiB.`,
  );
  const lastThirdKeys = run.samples
    .filter((sample) => sample.atMs >= (run.trafficMs * 2) / 3)
    .map((sample) => sample.blobs.keys);
  console.info(
    `**Blobs: ${fmt(run.blobsAtStart.bytes / 1024, 0)} → ${fmt(run.blobsAtEnd.bytes / 1024, 0)} KiB, ${run.blobsAtStart.keys} → ${run.blobsAtEnd.keys} keys** (${Math.min(...lastThirdKeys)}–${Math.max(...lastThirdKeys)} over the last third of the run).`,
  );
}
