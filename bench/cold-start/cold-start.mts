import { fork } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { CLI, CLI_DIR, copyProject, netlifyBuild, ROOT } from '../../scripts/netlify-cli.mts';
import { startBlobsServer } from '../../server/blobs.mts';

/**
 * `npm run bench cold-start`: the Netlify build as `netlify build --offline` packages it. Prints
 * each function's zipped size and, for `ssr` and `location`, the time from a fresh process to the
 * first answer (the function module loaded from its unzipped bundle, one real request), against a
 * baseline function that imports nothing, started the same way in the same run. Netlify's own
 * bootstrap, the same for every function, is left out. Needs netlify-cli in .cache/ (installed by
 * `npm run verify:netlify`); without it this part is skipped with a line saying so.
 */
const ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 7);
const LIMIT_BYTES = 1024 * 1024;
const TOKEN = 'cold-start-bench-token-0123456789';

interface Manifest {
  functions: { name: string; path: string }[];
}
interface Answer {
  status: number;
  imported: number;
  answered: number;
  wall: number;
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

/** One fresh process: load `file`, answer one request. */
export function probe(file: string, url: string, init?: RequestInit): Promise<Answer> {
  const started = performance.now();
  const child = fork(path.join(ROOT, 'bench/cold-start/probe.mjs'), [], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (answer) => {
      resolve({ ...(answer as Omit<Answer, 'wall'>), wall: performance.now() - started });
      child.kill();
    });
    child.once('error', reject);
    child.send({ module: pathToFileURL(file).href, url, init });
  });
}

/** Builds `dir` with Netlify's CLI and measures its functions. */
export async function measureNetlifyBuild(dir: string): Promise<void> {
  const started = performance.now();
  netlifyBuild(dir);
  console.info(
    `\n## cold-start: the Netlify build (netlify build --offline, ${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  const manifest = JSON.parse(readFileSync(path.join(dir, '.netlify/functions/manifest.json'), 'utf8')) as Manifest;
  console.info('| function | zipped KiB | under 1 MiB |');
  console.info('|---|---|---|');
  for (const fn of [...manifest.functions].sort((a, b) => a.name.localeCompare(b.name))) {
    const size = statSync(fn.path).size;
    console.info(`| ${fn.name} | ${(size / 1024).toFixed(0)} | ${size < LIMIT_BYTES ? 'yes' : '**no**'} |`);
  }

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
  const ssr = await unpack(zipOf('ssr'));
  const location = await unpack(zipOf('location'));
  const cases = {
    baseline: { file: path.join(ROOT, 'bench/cold-start/baseline.mjs'), url: 'https://site.example/' },
    'ssr (GET /api/wait-times?park=epcot)': { file: ssr.file, url: 'https://site.example/api/wait-times?park=epcot' },
    'location (POST /api/location)': {
      file: location.file,
      url: 'https://site.example/api/location',
      init: {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"lat":48.8566,"lon":2.3522}',
      },
    },
  };
  const results = new Map<string, Answer[]>(Object.keys(cases).map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, { file, url, ...rest }] of Object.entries(cases)) {
        results.get(name)?.push(await probe(file, url, 'init' in rest ? rest.init : undefined));
      }
    }
  } finally {
    await blobs.stop();
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
    // Exactly the folders unpack() created, nothing above them.
    for (const { dir } of [ssr, location]) await rm(dir, { recursive: true, force: true });
  }

  const baseline = median(results.get('baseline')?.map((a) => a.answered) ?? []);
  console.info(
    `\nmedian of ${ROUNDS} fresh processes each; ms since the process started (Node's own start included)\n`,
  );
  console.info(
    '| function | status | module loaded | first answer | over baseline | ratio to baseline | fork → answer |',
  );
  console.info('|---|---|---|---|---|---|---|');
  for (const [name, answers] of results) {
    const answered = median(answers.map((a) => a.answered));
    console.info(
      `| ${name} | ${answers[0]?.status} | ${median(answers.map((a) => a.imported)).toFixed(0)} | ${answered.toFixed(0)} | ${(answered - baseline).toFixed(0)} | ${(answered / baseline).toFixed(2)} | ${median(answers.map((a) => a.wall)).toFixed(0)} |`,
    );
  }
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
