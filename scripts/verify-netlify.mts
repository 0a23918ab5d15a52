import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { localDateOf } from '../src/wait-times/local-time.ts';
import { findPark } from '../src/wait-times/parks.ts';
import { freePort } from './fake-http-server.mts';
import { syntheticSchedule } from './fake-park-hours.mts';
import { startFakeQueueTimes } from './fake-queue-times.mts';
import { CLI, cliEnvironment, copyProject, ensureCli, PATH, ROOT, run } from './netlify-cli.mts';

/**
 * `npm run verify:netlify`: `netlify build --offline` and `netlify serve --offline` in a copy of the
 * project (netlify-cli.mts), then the smoke in tests/smoke/. With `-- --remote`, only the smoke's
 * read-only part against the deploy at SMOKE_URL (README, "Deploying to Netlify").
 */
const started = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

/**
 * The CLI lists every fetch a function makes in its `x-nf-fetch-timing` response header: a recorder
 * run's Blobs calls pass Node's 16 KB header limit, in the CLI's own proxy ("Could not proxy
 * request.") and in the smoke's client. Netlify itself sends no such header (docs/netlify.md).
 */
const LARGE_HEADERS = `${process.env.NODE_OPTIONS ?? ''} --max-http-header-size=262144`.trim();

/** Runs the smoke project; asynchronously, so the fake upstream in this process keeps answering. */
function smoke(env: Record<string, string>): Promise<number> {
  const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'smoke'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PATH, NODE_OPTIONS: LARGE_HEADERS, ...env },
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

if (process.argv.includes('--remote')) {
  if (!process.env.SMOKE_URL) {
    console.error('Set SMOKE_URL to the deploy to check, e.g. SMOKE_URL=https://example.netlify.app');
    process.exit(2);
  }
  // Read-only: no token, no build directory, so the smoke sends GET, HEAD and OPTIONS only.
  delete process.env.SMOKE_TOKEN;
  delete process.env.SMOKE_BUILD_DIR;
  process.exit(await smoke({}));
}

/** Lines of a build log that warn, without the machine's own noise (npm config, locale). */
const warnings = (log: string) =>
  log.split('\n').filter((line) => /\bwarn(ing)?\b/i.test(line) && !/Unknown (user|env) config|setlocale/.test(line));

ensureCli();
const copy = await copyProject();
const upstream = await startFakeQueueTimes();
// The smoke runs the recorder, which polls only parks open now: Volcano Bay opens around the clock
// here (SYNTHETIC), so that run finds a park to poll whatever the hour CI runs at.
const volcanoBay = findPark('volcano-bay');
if (volcanoBay) {
  const today = localDateOf(Date.now(), volcanoBay.timezone);
  upstream.schedules[volcanoBay.themeParksWikiId] = syntheticSchedule(volcanoBay, today, 'allDay');
}
let serve: ChildProcess | undefined;
let status = 1;
try {
  let from = performance.now();
  const log = run(CLI, ['build', '--offline', '--context', 'production'], copy, cliEnvironment());
  console.info(`netlify build --offline: ${seconds(from)}`);
  for (const line of warnings(log)) console.warn(`build warning: ${line}`);

  // netlify serve builds again, with what a deploy at this address would get from Netlify: URL.
  const port = await freePort();
  const token = randomBytes(24).toString('base64url');
  const site = `http://localhost:${port}`;
  from = performance.now();
  serve = spawn(CLI, ['serve', '--offline', '--internal-disable-edge-functions', '--port', String(port)], {
    cwd: copy,
    detached: true,
    env: cliEnvironment({
      NODE_OPTIONS: LARGE_HEADERS,
      URL: site,
      LOCATION_TOKEN: token,
      WAIT_TIMES_UPSTREAM_URL: upstream.url,
      PARK_HOURS_UPSTREAM_URL: upstream.url,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    for (const stream of [serve?.stdout, serve?.stderr])
      stream?.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Local dev server ready')) resolve();
      });
    serve?.once('exit', (code) => reject(new Error(`netlify serve exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`netlify serve did not start:\n${output}`)), 180_000).unref();
  });
  console.info(`netlify serve --offline: ready on ${site} in ${seconds(from)}`);

  from = performance.now();
  status = await smoke({ SMOKE_URL: site, SMOKE_TOKEN: token, SMOKE_BUILD_DIR: copy });
  console.info(`smoke: ${seconds(from)}`);
  // What the CLI logged (function errors among it) explains a failed smoke.
  if (status !== 0) console.info(`netlify serve's log:\n${output.split('\n').slice(-80).join('\n')}`);
  if (process.env.NETLIFY_SERVE_LOG) await writeFile(process.env.NETLIFY_SERVE_LOG, output);
} catch (error) {
  console.error((error as Error).message);
} finally {
  // The CLI and everything it started (its own process group): the copy is thrown away after.
  if (serve?.pid && serve.exitCode === null && serve.signalCode === null) {
    const exited = once(serve, 'exit');
    process.kill(-serve.pid, 'SIGKILL');
    await exited;
  }
  await upstream.close();
  await rm(copy, { recursive: true, force: true });
}
console.info(`verify:netlify ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(started)}`);
process.exit(status);
