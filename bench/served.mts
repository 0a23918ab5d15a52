import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Helpers shared by the benchmarks (`npm run bench`) and the soak (`npm run soak`). */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Preloaded into a served site (never in production) so a run can move its clock over IPC. */
export const FAKE_CLOCK = path.join(ROOT, 'tests/support/fake-clock.mjs');
/** Preloaded into a served site (never in production) so a run can read its memory over IPC. */
export const MEMORY_PROBE = path.join(ROOT, 'bench/memory-probe.mts');

export interface Served {
  url: string;
  child: ChildProcess;
  dataDir: string;
  readyMs: number;
  advanceClock(ms: number): Promise<void>;
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  /** Environment on top of HOST, PORT (0), DATA_DIR and PATH. */
  env?: Record<string, string>;
  /** Modules to `--import` before the server (the fake clock is always one of them). */
  preload?: string[];
  /** Extra Node flags (e.g. `--expose-gc`). */
  nodeFlags?: string[];
  /** Called with every line the server writes to stdout or stderr after it is listening. */
  onLog?: (line: string, stream: 'stdout' | 'stderr') => void;
}

/**
 * The built site as `npm run serve` starts it (`node server/main.mts` with the environment), on an
 * OS-assigned loopback port with a fresh DATA_DIR, and with the test clock preloaded so a run can
 * move time forward.
 */
export async function startServed(options: ServeOptions = {}): Promise<Served> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-bench-'));
  const started = performance.now();
  const preload = [FAKE_CLOCK, ...(options.preload ?? [])];
  const child = fork(path.join(ROOT, 'server/main.mts'), [], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...options.env },
    execArgv: [...(options.nodeFlags ?? []), ...preload.flatMap((module) => ['--import', module])],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    let listening = false;
    for (const stream of ['stdout', 'stderr'] as const) {
      let partial = '';
      child[stream]?.setEncoding('utf8');
      child[stream]?.on('data', (chunk: string) => {
        if (!listening) {
          output += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) {
            listening = true;
            resolve(match[1]);
          }
          return;
        }
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) options.onLog?.(line, stream);
      });
    }
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return {
    url,
    child,
    dataDir,
    readyMs: performance.now() - started,
    advanceClock: (ms) => advanceClockOf(child, ms),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Moves the clock of a process started with the fake clock preloaded; resolves once it has moved. */
export function advanceClockOf(child: ChildProcess, ms: number): Promise<void> {
  return askChild(child, { type: 'advance-clock', ms }, 'clock-advanced').then(() => undefined);
}

/** Sends a message to a child and resolves with its first answer of the given type. */
export function askChild<T = Record<string, unknown>>(
  child: ChildProcess,
  message: { type: string; [key: string]: unknown },
  answerType: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: { type?: string }) => {
      if (answer?.type !== answerType) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(answer as T);
    };
    const onExit = () => {
      child.off('message', onMessage);
      reject(new Error(`process ${child.pid} exited before answering ${message.type}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/** A field of /proc/<pid>/status in MiB (VmRSS: resident now, VmHWM: peak); Linux only. */
function procStatusMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now, in MiB; Linux only. */
export const rssMiB = (pid: number | undefined) => procStatusMiB(pid, 'VmRSS');
/** Peak resident memory of a process, in MiB; Linux only. */
export const peakRssMiB = (pid: number | undefined) => procStatusMiB(pid, 'VmHWM');

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
