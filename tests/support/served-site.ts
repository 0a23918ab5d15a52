import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtSiteUrl } from '../../scripts/build-record.mts';
import { SLOW_MACHINE_LIMITS } from './slow-machine.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Upstreams a test does not name answer from a closed loopback port, so that no test reaches the internet. */
export const OFFLINE_DEFAULTS = {
  WAIT_TIMES_UPSTREAM_URL: 'http://127.0.0.1:9',
  PARK_HOURS_UPSTREAM_URL: 'http://127.0.0.1:9',
};

/**
 * The SITE_URL dist/ was built for (http://localhost:4321 unless the build set one): the served site
 * refuses to start with another, since its prerendered documents name this one.
 */
export const BUILT_SITE_URL = builtSiteUrl(ROOT) ?? 'http://localhost:4321';

export interface ServedSite {
  url: string;
  process: ChildProcess;
  output: () => string;
  dataDir: string;
  /** Moves the server's clock forward (needs `clock: true`). */
  advanceClock(ms: number): Promise<void>;
  /** Stops the server's clock where it stands (`held`), or lets it run on from there (needs `clock: true`). */
  holdClock(held: boolean): Promise<void>;
  /** Heap in use after a full collection, in MiB: what the server keeps (needs `clock: true`). */
  heapMiB(): Promise<number>;
  stop(): Promise<number | null>;
}

/**
 * Starts the built site exactly as `npm run serve` does (`node server/main.mts` with the
 * environment), on an OS-assigned port, with a fresh DATA_DIR unless one is given.
 */
export async function startServedSite(
  options: { env?: Record<string, string>; clock?: boolean; dataDir?: string } = {},
): Promise<ServedSite> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'site-api-data-')));
  const child = fork(path.join(ROOT, 'server/main.mts'), [], {
    cwd: ROOT,
    // Park hours from a closed loopback port unless a test names a fake: nothing reaches ThemeParks.wiki.
    // The recorder stays off unless a test turns it on: its runs would add upstream requests to every count.
    env: {
      ...OFFLINE_DEFAULTS,
      ...SLOW_MACHINE_LIMITS,
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      WAIT_TIMES_RECORDER: 'off',
      ...options.env,
    },
    execArgv: options.clock ? ['--expose-gc', '--import', path.join(ROOT, 'tests/support/fake-clock.mjs')] : [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    // Well under 2 s on a quiet machine; a machine busy with other test runs can take many times that.
    const timer = setTimeout(() => reject(new Error(`site did not start:\n${output}`)), 90_000);
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`site exited with ${code} before listening:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Sends `message` to fake-clock.mjs in the site's process and waits for its answer of type `reply`. */
  const ask = (message: object, reply: string) =>
    new Promise<{ bytes?: number }>((resolve) => {
      const onMessage = (answer: { type?: string; bytes?: number }) => {
        if (answer?.type !== reply) return;
        child.off('message', onMessage);
        resolve(answer);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  return {
    url,
    process: child,
    output: () => output,
    dataDir,
    advanceClock: async (ms) => void (await ask({ type: 'advance-clock', ms }, 'clock-advanced')),
    holdClock: async (held) => void (await ask({ type: 'hold-clock', held }, 'clock-held')),
    heapMiB: async () => ((await ask({ type: 'heap' }, 'heap')).bytes ?? 0) / 2 ** 20,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Polls `check` until it returns true or the time is up (for effects that finish in the background). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
