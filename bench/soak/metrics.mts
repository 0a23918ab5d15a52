import { type ChildProcess, fork } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { askChild, FAKE_CLOCK, ROOT } from '../served.mts';
import type { FakesReady } from './fakes.mts';

/** What the soak measures beside requests: server memory, Blobs on disk, and the fakes process. */

export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** heapUsed right after the newest major collection (null before the first). */
  heapAfterMajorGc: number | null;
  /** Server CPU time since the previous sample, in % of one core. */
  cpuPercent: number;
  /** Server event loop delay since the previous sample. */
  loop: { p99Ms: number; maxMs: number };
  /** Garbage collection since the previous sample. */
  gc: { pauses: number; pauseMs: number; maxPauseMs: number; majors: number };
}

export interface Sample {
  atMs: number;
  simulated: number;
  rssMiB: number | undefined;
  heap: MemoryUsage | undefined;
  blobs: { bytes: number; keys: number };
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  inFlight: number;
  /** The harness's own event loop delay (it adds to every latency it measures). */
  harnessLoopMaxMs: number;
}

export const MiB = 1024 * 1024;

export interface BlobsUsage {
  /** Bytes on disk, values and metadata. */
  bytes: number;
  /** Stored keys (each is a value file, plus a metadata file when it has metadata). */
  keys: number;
  /** Keys by store and first key segment, e.g. `wait-times/history`. */
  byStore: Map<string, number>;
}

/** What the embedded Blobs server keeps on disk (`<DATA_DIR>/blobs/{entries,metadata}/local/site:<store>/<key>`). */
export async function blobsUsage(dir: string): Promise<BlobsUsage> {
  const usage: BlobsUsage = { bytes: 0, keys: 0, byStore: new Map() };
  let files: import('node:fs').Dirent[];
  try {
    files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  } catch {
    return usage;
  }
  await Promise.all(
    files.map(async (file) => {
      const relative = path.relative(dir, path.join(file.parentPath, file.name)).split(path.sep);
      let size: number;
      try {
        ({ size } = await stat(path.join(file.parentPath, file.name)));
      } catch {
        return; // deleted while we walked
      }
      usage.bytes += size;
      if (relative[0] !== 'entries') return;
      usage.keys += 1;
      const store = `${(relative[2] ?? '').replace(/^site:/, '')}/${relative[3] ?? ''}`;
      usage.byStore.set(store, (usage.byStore.get(store) ?? 0) + 1);
    }),
  );
  return usage;
}

export const memoryOf = (child: ChildProcess) =>
  Promise.race([
    askChild<MemoryUsage & { type: string }>(child, { type: 'memory' }, 'memory-usage'),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000)),
  ]);

export function startFakes(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = fork(path.join(ROOT, 'bench/soak/fakes.mts'), [], {
    cwd: ROOT,
    execArgv: ['--import', FAKE_CLOCK],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: FakesReady) => resolve({ child, env: message.env }));
    child.once('exit', (code) => reject(new Error(`the fakes exited with ${code}`)));
  });
}

/** Least-squares slope of y over x. */
export function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}
