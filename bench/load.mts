import http from 'node:http';

/**
 * A closed-loop HTTP load generator, run in its own process so that it does not share an event
 * loop with the server it measures: `connections` keep-alive clients each send the next request
 * as soon as the previous answer is read, for `durationMs`.
 */
export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

async function run(urls: string[], connections: number, durationMs: number, headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  let next = 0;
  const once = () =>
    new Promise<void>((resolve) => {
      const url = urls[next++ % urls.length] as string;
      const t0 = performance.now();
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.once('end', () => {
          latencies.push(performance.now() - t0);
          statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
          resolve();
        });
      });
      req.once('error', () => {
        errors += 1;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const result: LoadResult = {
    requests: latencies.length,
    errors,
    statuses,
    seconds,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
  };
  return result;
}

interface LoadRequest {
  urls: string[];
  connections: number;
  durationMs: number;
  headers?: Record<string, string>;
}

process.on('message', async (message: LoadRequest) => {
  const result = await run(message.urls, message.connections, message.durationMs, message.headers ?? {});
  process.send?.(result);
  process.exit(0);
});
