import { type FakeQueueTimes, startFakeQueueTimes } from '../scripts/fake-queue-times.mts';
import { runRecordWaitsJob } from '../src/jobs/record-waits-job.ts';
import { PARKS } from '../src/wait-times/parks.ts';
import { BUILT_SITE_URL, type ServedSite, startServedSite } from '../tests/support/served-site.ts';
import { LOAD_ROUNDS, netlifyFunctions } from './function-size.mts';
import { gradingScenario, withBlobs } from './grading.mts';

/**
 * `npm run bench [fan-in|slow-upstream|function-size]…`: what a visitor waits for, on loopback,
 * next to a baseline measured in the same run. Bounded in requests and time; never fails on a timing.
 *  - fan-in: many visitors ask for a park nobody asked for lately: one upstream request, and the
 *    slowest of them against one visitor alone
 *  - slow-upstream: the upstream hangs or fails once the data is stale: answers come from the last
 *    good data, latency against a healthy upstream
 *  - function-size: each Netlify function zipped and loaded (function-size.mts)
 *  - recorder: one run of the wait-times recorder over all 17 parks (every one open), with a
 *    healthy, a slow and a hanging upstream, against Netlify's 30 s limit for scheduled functions
 *  - grading: one `grade-forecasts` run over a SYNTHETIC finished day of every park, against one park
 * `npm run soak [-- minutes]`: mixed traffic for 3 minutes while the server's clock runs 30 times
 * fast, so that caches expire and history fills as in hours of use: errors (an answer outside its
 * kind's statuses, a network error; exits 1) and memory growth (the heap kept, every 10 s).
 */
const CLIENTS = 100;
/** A real upstream's round trip, so that a crowd arrives while the one request is under way. */
const UPSTREAM_MS = 150;
const MINUTE = 60_000;
const SOAK_CLIENTS = 8;
const SPEED = 30;

type Answer = { ms: number; status: number; updatedAt?: string | undefined };

async function get(url: string, init?: RequestInit): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const json = response.headers.get('content-type')?.includes('json');
    const body = json ? await response.json() : await response.text();
    return { ms: performance.now() - started, status: response.status, updatedAt: body.updatedAt };
  } catch {
    return { ms: performance.now() - started, status: 0 };
  }
}

/** `clients` visitors, each asking again as soon as answered, for `ms`. */
async function closedLoop(clients: number, ms: number, ask: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  const deadline = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) answers.push(await ask());
    }),
  );
  return answers;
}

const fmt = (n: number) => n.toFixed(1);
const quantile = (answers: Answer[], q: number) => {
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const statuses = (answers: Answer[]) =>
  Object.entries(Object.groupBy(answers, (a) => String(a.status)))
    .map(([status, group]) => `${group?.length} × ${status}`)
    .join(', ');

/** The built site as `npm run serve` runs it, in a process of its own, with a clock the bench moves. */
async function withSite(task: (site: ServedSite, upstream: FakeQueueTimes) => Promise<void>, moving = false) {
  const upstream = await startFakeQueueTimes({ moving });
  const env = { WAIT_TIMES_UPSTREAM_URL: upstream.url, SITE_URL: BUILT_SITE_URL };
  const site = await startServedSite({ env, clock: true });
  try {
    await task(site, upstream);
  } finally {
    await site.stop();
    await upstream.close();
  }
}

const urlOf = (site: ServedSite, slug: string) => `${site.url}/api/wait-times?park=${slug}`;
const upstreamRequests = (upstream: FakeQueueTimes, id: number) => upstream.count(`/parks/${id}/queue_times.json`);

/** Prints a Markdown table under its title; `header` names the columns, separated by ` | `. */
function table(title: string, header: string, rows: unknown[][]): void {
  const columns = header.split(' | ');
  const lines = [columns, columns.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  console.info(`\n## ${title}\n\n${lines.join('\n')}`);
}

/** One recorder run on a fresh Blobs store (no claims yet): its time, its outcome and its Blobs requests. */
async function recorderRun() {
  const { value, blobs } = await withBlobs(async () => {
    const started = performance.now();
    const run = await runRecordWaitsJob({ hoursOf: async () => ({ opensAt: 0, closesAt: Date.now() + MINUTE }) });
    return { ms: performance.now() - started, run };
  });
  return { ...value, blobs };
}

const scenarios: Record<string, () => Promise<void>> = {
  grading: async () => {
    const { title, header, rows } = await gradingScenario();
    table(title, header, rows);
  },
  recorder: async () => {
    const upstream = await startFakeQueueTimes({ moving: true });
    process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
    const rows: unknown[][] = [];
    let baseline = Number.NaN;
    const cases: [string, () => void][] = [
      [`healthy upstream (${UPSTREAM_MS} ms)`, () => Object.assign(upstream, { delayMs: UPSTREAM_MS })],
      ['slow upstream (3 s for every park)', () => Object.assign(upstream, { delayMs: 3_000 })],
      ['slow (3 s) and one park hanging', () => Object.assign(upstream.faults, { 5: 'hang' })],
      ['slow (3 s) and one park sending garbage', () => Object.assign(upstream, { faults: { 5: 'invalid-json' } })],
    ];
    for (const [name, setUp] of cases) {
      setUp();
      const { ms, run, blobs } = await recorderRun();
      baseline = Number.isNaN(baseline) ? ms : baseline;
      const parks = run.parks;
      const done = `${parks?.polled.length} polled, ${parks?.failed.length} failed`;
      rows.push([name, done, fmt(ms / 1000), fmt(ms / baseline), blobs]);
    }
    await upstream.close();
    const header = 'upstream | parks | run s | run / healthy | Blobs requests of the run';
    table('recorder: one run over 17 open parks (Netlify stops a scheduled function at 30 s)', header, rows);
  },
  'fan-in': () =>
    withSite(async (site, upstream) => {
      upstream.delayMs = UPSTREAM_MS;
      const [warm, ...parks] = PARKS;
      await get(urlOf(site, warm?.slug ?? '')); // the process's first answer loads Astro's routes
      const alone = [];
      for (const park of parks.slice(0, 3)) alone.push({ ...(await get(urlOf(site, park.slug))), park });
      const baseline = quantile(alone, 0.5);
      const aloneUpstream = Math.max(...alone.map((a) => upstreamRequests(upstream, a.park.queueTimesId)));
      const rows: unknown[][] = [
        ['one visitor alone (median of 3 parks)', 1, aloneUpstream, statuses(alone), fmt(baseline), 1],
      ];
      for (const park of parks.slice(3, 6)) {
        const answers = await Promise.all(Array.from({ length: CLIENTS }, () => get(urlOf(site, park.slug))));
        const [slowest, upstreamCount] = [quantile(answers, 1), upstreamRequests(upstream, park.queueTimesId)];
        rows.push([park.slug, CLIENTS, upstreamCount, statuses(answers), fmt(slowest), fmt(slowest / baseline)]);
      }
      const header = 'case | visitors | upstream requests | answers | slowest ms | slowest / one visitor alone';
      table(`fan-in: a park not asked for lately, upstream ${UPSTREAM_MS} ms`, header, rows);
    }),
  'slow-upstream': () =>
    withSite(async (site, upstream) => {
      const url = urlOf(site, 'epcot');
      const { updatedAt } = await get(url);
      const healthy = await closedLoop(20, 5_000, () => get(url));
      const row = (name: string, seconds: number, answers: Answer[]) => {
        const lastGood = answers.filter((a) => a.status === 200 && a.updatedAt === updatedAt).length;
        const [p50, p99, max] = [0.5, 0.99, 1].map((q) => quantile(answers, q)) as [number, number, number];
        const cells = [name, seconds, statuses(answers), `${lastGood} of ${answers.length}`, fmt(p50), fmt(p99)];
        return [...cells, fmt(max), `${fmt(p50 / quantile(healthy, 0.5))} / ${fmt(p99 / quantile(healthy, 0.99))}`];
      };
      const rows = [row('healthy, data fresh', 5, healthy)];
      // A hanging upstream is given up after its timeout (8 s): 10 s covers it.
      for (const [name, mode, seconds] of [
        ['hangs', 'hang', 10],
        ['answers 500', 'error-500', 3],
      ] as const) {
        upstream.mode = mode;
        await site.advanceClock(6 * MINUTE);
        rows.push(row(name, seconds, await closedLoop(20, seconds * 1000, () => get(url))));
      }
      const header =
        'upstream | seconds | answers | from the last good data | p50 ms | p99 ms | max ms | p50, p99 / healthy';
      table('slow-upstream: data 6 minutes old (stale), the upstream misbehaving; 20 visitors', header, rows);
    }),
  'function-size': async () => {
    const rows = await netlifyFunctions();
    const header = 'function | files | zipped bytes | load ms | over baseline ms | within 1 MiB and 100 ms';
    table(`function-size: the Netlify build; load time the median of ${LOAD_ROUNDS} fresh processes`, header, rows);
  },
};

const pick = <T,>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)] as T;
/** What the soak sends: a path (`{park}` stands for a random park), the statuses it may answer, the request. */
type Kind = [path: string, ok?: number[], init?: RequestInit];
const post = (body: string, type = 'application/json') => ({ method: 'POST', body, headers: { 'Content-Type': type } });
/** Wait times most often (some with a tracking query), then everything else a visitor or a client meets. */
const SOAK_KINDS: Kind[] = [
  ...Array.from({ length: 8 }, (): Kind => ['/api/wait-times?park={park}']),
  ['/api/wait-times?park={park}&utm_source=soak'],
  ['/api/wait-times/history?park={park}'],
  ...['/', '/parks/', '/parks/{park}', '/docs/api/', '/docs/openapi.json', '/.well-known/api-catalog'].map(
    (path): Kind => [path],
  ),
  ...['/api/location', '/api/photo-feed', '/api/publish-status', '/api/professional-network-status'].map(
    (path): Kind => [path],
  ),
  ['/api/wait-times?park=nowhere', [404]],
  ['/api/wait-times', [400]],
  ['/api/nothing', [404]],
  ['/api/wait-times', [405], post('{}')],
  ['/api/location', [401, 429], post('{}')],
  ['/api/contact', [413, 429], post('x'.repeat(200_000))],
  ['/api/contact', [415, 429], post('a=b', 'text/plain')],
];

const soak = (minutes: number) =>
  withSite(async (site, upstream) => {
    const errors: string[] = [];
    const heap: { at: number; mib: number }[] = [];
    const started = performance.now();
    const clock = setInterval(() => site.advanceClock(2_000 * SPEED), 2_000);
    const sampler = setInterval(async () => heap.push({ at: performance.now(), mib: await site.heapMiB() }), 10_000);
    const answers = await closedLoop(SOAK_CLIENTS, minutes * MINUTE, async () => {
      const [template, ok = [200], init] = pick(SOAK_KINDS);
      const path = template.replace('{park}', pick(PARKS).slug);
      const answer = await get(`${site.url}${path}`, init);
      if (!ok.includes(answer.status))
        errors.push(`${init?.method ?? 'GET'} ${path.split('?')[0]} → ${answer.status || 'network error'}`);
      return answer;
    });
    clearInterval(clock);
    clearInterval(sampler);
    heap.push({ at: performance.now(), mib: await site.heapMiB() });
    const log = site.output().trim().split('\n').slice(1); // after its "listening on" line
    const seconds = (performance.now() - started) / 1000;
    const simulated = (seconds * SPEED) / 60;
    // The first minute warms up (caches, history, V8); growth is read over the second half.
    const middle = heap[Math.floor(heap.length / 2)] ?? { at: 0, mib: 0 };
    const last = heap.at(-1) ?? middle;
    const slope = (last.mib - middle.mib) / Math.max(1e-9, (last.at - middle.at) / MINUTE);
    const [p50, p99, max] = [0.5, 0.99, 1].map((q) => fmt(quantile(answers, q)));
    const heapRow = heap.map((sample) => sample.mib.toFixed(1)).join(' → ');
    const bound = PARKS.length * Math.ceil(simulated / 5 + 1);
    const title = `soak: ${minutes} min, ${SOAK_CLIENTS} visitors, the server's clock ${SPEED}× fast (${simulated.toFixed(0)} simulated minutes)`;
    table(title, 'figure | result', [
      ['requests', `${answers.length} (${(answers.length / seconds).toFixed(0)}/s), **${errors.length} errors**`],
      ['latency ms', `p50 ${p50}, p99 ${p99}, max ${max}`],
      ['heap kept after a full collection, MiB', `${heapRow}; second half ${slope.toFixed(2)} MiB/min`],
      ['upstream requests', `${upstream.count()} (one per park per 5 simulated minutes: at most ${bound})`],
      ['server log', `${log.length} lines${log.length ? `, first: ${log[0]}` : ''}`],
    ]);
    for (const [key, all] of Object.entries(Object.groupBy(errors, (key) => key)))
      console.info(`error: ${all?.length} × ${key}`);
    process.exitCode = errors.length > 0 ? 1 : 0;
  }, true);

const [first, minutes] = process.argv.slice(2);
const chosen = process.argv.slice(2).filter((name) => name in scenarios);
if (first === 'soak') await soak(Number(minutes ?? 3));
else for (const name of chosen.length > 0 ? chosen : Object.keys(scenarios)) await scenarios[name]?.();
