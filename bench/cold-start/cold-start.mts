import { fork } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getStore } from '@netlify/blobs';
import { bundleModules } from '../../scripts/bundle-functions.mts';
import { startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { CLI, CLI_DIR, copyProject, netlifyBuild, ROOT } from '../../scripts/netlify-cli.mts';
import { startBlobsServer } from '../../server/blobs.mts';
import { PARKS } from '../../src/wait-times/parks.ts';
import { fetchQueueTimes, ridesOf } from '../../src/wait-times/queue-times.ts';

/**
 * `npm run bench cold-start`: the Netlify build as `netlify build --offline` packages it. Prints
 * each function's zipped size and, for `ssr` (four routes), `location` and `contact`, the time from
 * a fresh process to the first answer: Netlify's bootstrap loaded first (as every function's entry
 * point does), then the function module from its unzipped bundle, one real request. Reference
 * functions are started the same way in the same run: one that imports nothing (the baseline) and
 * one that reads one blob as ours do (the floor of any function that uses Blobs: the client, its
 * first request and its connection, paid once per process). Needs netlify-cli in .cache/ (installed by
 * `npm run verify:netlify`); without it this part is skipped with a line saying so.
 */
const ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 11);
const LIMIT_BYTES = 1024 * 1024;
const TOKEN = 'cold-start-bench-token-0123456789';

interface Manifest {
  functions: { name: string; path: string }[];
}
interface Answer {
  status: number;
  bootstrapped: number;
  imported: number;
  answered: number;
}
interface Case {
  file: string;
  url: string;
  init?: RequestInit;
  /** A Blobs store emptied before each probe, so the request finds nothing kept. */
  emptied?: string;
  /** Stores a park's forecaster profile as a season of learning leaves it, before each probe. */
  profileOf?: string;
}

/** Deletes every blob of a store of the bench's Blobs server. */
async function empty(name: string): Promise<void> {
  const store = getStore({ name, consistency: 'strong' });
  const { blobs } = await store.list();
  await Promise.all(blobs.map(({ key }) => store.delete(key)));
}

/**
 * A park's forecaster profile at its working size: every ride the upstream lists, with a bucket
 * for each half hour from 08:00 to 22:00 (22 KB for the 19 rides of EPCOT's recorded payload; a
 * 50-ride park's is about 90 KB). A fresh bench store would otherwise hold a profile of a few
 * buckets, and reading a full one is part of a cold start.
 */
async function storeWorkingProfile(slug: string, upstreamUrl: string): Promise<void> {
  const park = PARKS.find((candidate) => candidate.slug === slug);
  if (!park) throw new Error(`no park ${slug}`);
  const rides = ridesOf(await fetchQueueTimes(upstreamUrl, park.queueTimesId));
  const buckets = Object.fromEntries(
    Array.from({ length: 28 }, (_, i) => [String(16 + i), [35.5, 6.25, -2.5, 40, 0.75, 100, 5.5, 12]]),
  );
  const profile = {
    version: 1,
    learnedThrough: Date.now() - 60 * 60_000,
    rides: Object.fromEntries(rides.map((ride) => [String(ride.id), { seen: Date.now(), buckets }])),
  };
  await getStore({ name: 'wait-times', consistency: 'strong' }).setJSON(`profile/${slug}`, profile);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Unzips a function bundle into a new temporary folder; returns it and its handler module (as the entry point names it). */
export async function unpack(zip: string): Promise<{ dir: string; file: string }> {
  const StreamZip = createRequire(path.join(CLI_DIR, 'package.json'))('node-stream-zip');
  const dir = await mkdtemp(path.join(tmpdir(), 'site-api-cold-'));
  const archive = new StreamZip.async({ file: zip });
  await archive.extract(null, dir);
  await archive.close();
  const entry = readFileSync(path.join(dir, '___netlify-entry-point.mjs'), 'utf8');
  const handler = /getLambdaHandler\('([^']+)'\)/.exec(entry)?.[1];
  if (!handler) throw new Error(`no handler named in ${zip}'s entry point`);
  return { dir, file: path.join(dir, handler) };
}

/** One fresh process: load Netlify's `bootstrap`, then `file`, answer one request. */
export function probe(bootstrap: string, { file, url, init }: Case): Promise<Answer> {
  const child = fork(path.join(ROOT, 'bench/cold-start/probe.mjs'), [], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (answer) => resolve(answer as Answer));
    child.once('error', reject);
    child.send({ bootstrap: pathToFileURL(bootstrap).href, module: pathToFileURL(file).href, url, init });
  });
}

/** Prints each function's zipped size; returns the manifest. */
function printSizes(dir: string): Manifest {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.netlify/functions/manifest.json'), 'utf8')) as Manifest;
  console.info('| function | zipped KiB | under 1 MiB |');
  console.info('|---|---|---|');
  for (const fn of [...manifest.functions].sort((a, b) => a.name.localeCompare(b.name))) {
    const size = statSync(fn.path).size;
    console.info(`| ${fn.name} | ${(size / 1024).toFixed(0)} | ${size < LIMIT_BYTES ? 'yes' : '**no**'} |`);
  }
  return manifest;
}

const ms = (value: number) => value.toFixed(0);

/**
 * Prints the medians: when Netlify's bootstrap was loaded (ms since the process started), how long
 * the function took to load after it and then to answer its first request, the two together (the
 * first answer, counted from the bootstrap), and that against both references. Node's own start
 * and the bootstrap are the same for every function and vary from one process to the next by more
 * than what is compared here, so the comparison starts after them.
 */
function printTimes(results: Map<string, Answer[]>): void {
  const medianOf = (answers: Answer[], value: (a: Answer) => number) => median(answers.map(value));
  const afterBootstrap = (a: Answer) => a.answered - a.bootstrapped;
  const firstAnswerOf = (name: string) => medianOf(results.get(name) ?? [], afterBootstrap);
  const baseline = firstAnswerOf('baseline');
  const floor = firstAnswerOf('Blobs floor');
  console.info(`\nmedian of ${ROUNDS} fresh processes each, in ms\n`);
  console.info(
    '| function | status | bootstrap loaded | function loaded in | request answered in | first answer after the bootstrap | over baseline | over Blobs floor |',
  );
  console.info('|---|---|---|---|---|---|---|---|');
  for (const [name, answers] of results) {
    const answered = medianOf(answers, afterBootstrap);
    console.info(
      `| ${name} | ${answers[0]?.status} | ${ms(medianOf(answers, (a) => a.bootstrapped))} | ${ms(medianOf(answers, (a) => a.imported - a.bootstrapped))} | ${ms(medianOf(answers, (a) => a.answered - a.imported))} | ${ms(answered)} | ${ms(answered - baseline)} | ${ms(answered - floor)} |`,
    );
  }
}

/** Builds `dir` with Netlify's CLI and measures its functions. */
export async function measureNetlifyBuild(dir: string): Promise<void> {
  const started = performance.now();
  netlifyBuild(dir);
  console.info(
    `\n## cold-start: the Netlify build (netlify build --offline, ${ms((performance.now() - started) / 1000)} s)\n`,
  );
  const manifest = printSizes(dir);
  const zipOf = (name: string) => manifest.functions.find((fn) => fn.name === name)?.path ?? '';

  const upstream = await startFakeQueueTimes();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-cold-data-'));
  const blobs = await startBlobsServer(dataDir); // sets NETLIFY_BLOBS_CONTEXT, which the probes inherit
  Object.assign(process.env, {
    WAIT_TIMES_UPSTREAM_URL: upstream.url,
    LOCATION_TOKEN: TOKEN,
    // What a function gets from Netlify at run time.
    URL: 'https://site.example',
    SITE_ID: 'bench',
  });
  const unpacked = [await unpack(zipOf('ssr')), await unpack(zipOf('location')), await unpack(zipOf('contact'))];
  const [ssr, location, contact] = unpacked;
  // The references, bundled as our functions are.
  const references = await mkdtemp(path.join(tmpdir(), 'site-api-cold-references-'));
  const [baseline, floor] = await bundleModules(
    ROOT,
    ['bench/cold-start/baseline.mjs', 'bench/cold-start/blobs-floor.mjs'],
    references,
  );
  const post = (body: string, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  const cases: Record<string, Case> = {
    baseline: { file: baseline ?? '', url: 'https://site.example/' },
    'Blobs floor': { file: floor ?? '', url: 'https://site.example/' },
    'ssr (GET /api/wait-times?park=epcot, kept in Blobs)': {
      file: ssr?.file ?? '',
      url: 'https://site.example/api/wait-times?park=epcot',
      profileOf: 'epcot',
    },
    // What a cold instance usually meets: the CDN asks once its copy is 5 minutes old, when the
    // snapshot in Blobs is as old, so the function asks the upstream and records what it got
    // (the history and the profile are kept).
    'ssr (the same, no snapshot kept: asks the upstream)': {
      file: ssr?.file ?? '',
      url: 'https://site.example/api/wait-times?park=epcot',
      emptied: 'wait-times',
      profileOf: 'epcot',
    },
    'ssr (GET /api/nothing, a 404)': { file: ssr?.file ?? '', url: 'https://site.example/api/nothing' },
    'location (POST /api/location)': {
      file: location?.file ?? '',
      url: 'https://site.example/api/location',
      init: post('{"lat":48.8566,"lon":2.3522}', { Authorization: `Bearer ${TOKEN}` }),
    },
    // Other on-demand routes of `ssr` that read Blobs, for the whole of that function's picture.
    // The owner's POST above leaves a pin for the GET to read.
    'ssr (GET /api/location, a pin kept)': { file: ssr?.file ?? '', url: 'https://site.example/api/location' },
    'ssr (GET /api/publish-status)': { file: ssr?.file ?? '', url: 'https://site.example/api/publish-status' },
    'contact (POST /api/contact, no message)': {
      file: contact?.file ?? '',
      url: 'https://site.example/api/contact',
      init: post('{}'),
    },
  };
  const bootstrap = path.join(ssr?.dir ?? '', '___netlify-bootstrap.mjs');
  const results = new Map<string, Answer[]>(Object.keys(cases).map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, probed] of Object.entries(cases)) {
        if (probed.emptied) await empty(probed.emptied);
        if (probed.profileOf) await storeWorkingProfile(probed.profileOf, upstream.url);
        results.get(name)?.push(await probe(bootstrap, probed));
      }
    }
  } finally {
    await blobs.stop();
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
    // Exactly the folders created here, nothing above them.
    for (const { dir } of unpacked) await rm(dir, { recursive: true, force: true });
    await rm(references, { recursive: true, force: true });
  }
  printTimes(results);
}

/** The bench scenario: a copy of the project, built and measured, then removed. */
export async function coldStart(): Promise<void> {
  if (!existsSync(CLI)) {
    console.info('\n## cold-start: skipped, netlify-cli is not installed (`npm run verify:netlify` installs it)');
    return;
  }
  const copy = await copyProject();
  try {
    await measureNetlifyBuild(copy);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
