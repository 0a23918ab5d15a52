import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeQueueTimes } from './fake-queue-times.mts';

/**
 * `npm run verify:netlify`: the site on Netlify's own tooling, offline. Installs netlify-cli 27
 * under .cache/ when missing (outside the project's dependencies, ~350 MB), runs
 * `netlify build --offline` and `netlify serve --offline` in a copy of the project (they write
 * dist/ and .netlify/, which must not replace the local build), then the smoke in tests/smoke/.
 *
 * `npm run verify:netlify -- --remote` runs only the read-only part of the smoke against the
 * deploy at SMOKE_URL (README, "Deploying to Netlify").
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI_DIR = path.join(root, '.cache/netlify-cli');
const CLI = path.join(CLI_DIR, 'node_modules/.bin/netlify');
// The project's Node 24 first, for the CLI and everything it starts (npm scripts already have it).
const PATH = [path.join(root, 'node_modules/node/bin'), path.join(root, 'node_modules/.bin'), process.env.PATH].join(
  path.delimiter,
);
const started = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

/** Runs the smoke project; asynchronously, so the fake upstream in this process keeps answering. */
function smoke(env: Record<string, string>): Promise<number> {
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'smoke'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH, ...env },
    },
  );
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

if (process.argv.includes('--remote')) {
  if (!process.env.SMOKE_URL) {
    console.error('Set SMOKE_URL to the deploy to check, e.g. SMOKE_URL=https://example.netlify.app');
    process.exit(2);
  }
  // Read-only: no token, no build directory, so the smoke sends GET, HEAD and OPTIONS only.
  const { SMOKE_TOKEN: _token, SMOKE_BUILD_DIR: _dir, ...env } = process.env;
  process.exit(await smoke(env as Record<string, string>));
}

/** Runs a command to completion, failing the verification with its output when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${output}`);
  return output;
}

/** A port nobody listens on right now (for the CLI, which needs a number). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/** The project as git sees it (tracked files and new ones not ignored), with node_modules linked. */
async function copyProject(): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'site-api-netlify-cli-'));
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of listed.stdout.split('\0').filter((f) => f && existsSync(path.join(root, f))))
    await cp(path.join(root, file), path.join(copy, file), { recursive: true });
  await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  // The CLI takes the git root as the project root.
  run('git', ['init', '-q'], copy, process.env);
  return copy;
}

/** Lines of a build log that warn, without the machine's own noise (npm config, locale). */
const warnings = (log: string) =>
  log.split('\n').filter((line) => /\bwarn(ing)?\b/i.test(line) && !/Unknown (user|env) config|setlocale/.test(line));

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid, 'SIGTERM');
    setTimeout(
      () => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, 'SIGKILL'),
      5000,
    ).unref();
  });
}

if (!existsSync(CLI)) {
  const from = performance.now();
  console.info('Installing netlify-cli@27 into .cache/netlify-cli (once, about 350 MB)…');
  run('npm', ['install', '--prefix', CLI_DIR, '--no-audit', '--no-fund', '--loglevel=error', 'netlify-cli@27'], root, {
    ...process.env,
    PATH,
  });
  console.info(`installed in ${seconds(from)}`);
}

const copy = await copyProject();
const upstream = await startFakeQueueTimes();
let serve: ChildProcess | undefined;
let status = 1;
try {
  // Netlify's own variables only (the CLI adds NETLIFY_LOCAL, CONTEXT, DEPLOY_PRIME_URL…): no SITE_URL.
  const { SITE_URL: _site, NETLIFY: _netlify, URL: _url, ...inherited } = process.env;
  const base = { ...inherited, PATH, BROWSER: 'none', ASTRO_TELEMETRY_DISABLED: '1' };

  let from = performance.now();
  const log = run(CLI, ['build', '--offline', '--context', 'production'], copy, base);
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
    env: { ...base, URL: site, LOCATION_TOKEN: token, WAIT_TIMES_UPSTREAM_URL: upstream.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`netlify serve did not start:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Local dev server ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    serve?.stdout?.on('data', onData);
    serve?.stderr?.on('data', onData);
    serve?.once('exit', (code) => reject(new Error(`netlify serve exited with ${code}:\n${output}`)));
  });
  console.info(`netlify serve --offline: ready on ${site} in ${seconds(from)}`);

  from = performance.now();
  status = await smoke({ SMOKE_URL: site, SMOKE_TOKEN: token, SMOKE_BUILD_DIR: copy });
  console.info(`smoke: ${seconds(from)}`);
} catch (error) {
  console.error((error as Error).message);
} finally {
  if (serve) await stopGroup(serve);
  await upstream.close();
  await rm(copy, { recursive: true, force: true });
}
console.info(`verify:netlify ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(started)}`);
process.exit(status);
