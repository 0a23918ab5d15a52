import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built site (`startSite`, as `npm run serve` runs it) in a process of its own, so that the
 * bench's clients do not share its event loop, with a clock the bench can move forward and a heap
 * it can read. Only for the bench and the soak: production never loads this file.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);

type Message = { advanceMs: number } | { heap: true } | { close: true };
type Answer = { url: string; heap: number };

export interface BenchSite {
  url: string;
  /** What the server wrote to stdout and stderr. */
  log: string[];
  advanceClock(ms: number): Promise<unknown>;
  /** Heap in use after a full collection, in MiB: what the server keeps. */
  heapMiB(): Promise<number>;
  close(): Promise<void>;
}

export async function startBenchSite(env: Record<string, string>): Promise<BenchSite> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-bench-'));
  const child = fork(SELF, [], {
    env: { PATH: process.env.PATH ?? '', ...env, BENCH_DATA_DIR: dataDir },
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const log: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk) => log.push(...`${chunk}`.trim().split('\n')));
  // The child answers in order: each answer settles the oldest question.
  const waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void }[] = [];
  child.on('message', (answer: Answer) => waiting.shift()?.resolve(answer));
  child.once('exit', () => {
    for (const question of waiting.splice(0)) question.reject(new Error(`the site exited:\n${log.join('\n')}`));
  });
  const ask = (message: Message) =>
    new Promise<Answer>((resolve, reject) => {
      waiting.push({ resolve, reject });
      child.send(message);
    });
  const { url } = await ask({ advanceMs: 0 });
  return {
    url,
    log,
    advanceClock: (ms) => ask({ advanceMs: ms }),
    heapMiB: async () => (await ask({ heap: true })).heap / 2 ** 20,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ close: true });
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// In the forked process: a clock `advanceMs` can move (installed before the site loads), then the site.
if (process.argv[1] === SELF && process.env.BENCH_DATA_DIR) {
  const RealDate = Date;
  let offsetMs = 0;
  globalThis.Date = class extends RealDate {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      else super(...(args as [number]));
    }
    static override now = () => RealDate.now() + offsetMs;
  } as DateConstructor;
  const { startSite } = await import('../server/runtime.mts');
  const dataDir = process.env.BENCH_DATA_DIR;
  const site = await startSite({ host: '127.0.0.1', port: 0, siteUrl: 'http://localhost:4321', dataDir, root: ROOT });
  // A bench that dies leaves no server behind.
  process.once('disconnect', () => process.exit(0));
  process.on('message', async (message: Message) => {
    if ('advanceMs' in message) offsetMs += message.advanceMs;
    if ('heap' in message) globalThis.gc?.();
    if ('close' in message) await site.close();
    process.send?.({ url: site.url, heap: process.memoryUsage().heapUsed }, () => {
      if ('close' in message) process.exit(0);
    });
  });
}
