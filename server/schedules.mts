import { Cron } from 'croner';
import { createContext, type LoadedFunction, runFunction } from './functions.mts';

/** Runs each scheduled function on its own `config.schedule`, the way Netlify invokes it (a POST with `next_run`). */
export function scheduleFunctions(
  functions: readonly LoadedFunction[],
  siteUrl: string,
  waitUntil: (promise: Promise<unknown>) => void,
): Cron[] {
  return functions.flatMap((fn) => {
    const schedule = 'schedule' in fn.config ? fn.config.schedule : undefined;
    if (!schedule) return [];
    return [
      new Cron(schedule, { timezone: 'UTC', protect: true }, async (job: Cron) => {
        const url = new URL(`/.netlify/functions/${fn.name}`, siteUrl);
        const request = new Request(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ next_run: job.nextRun()?.toISOString() ?? null }),
        });
        const context = createContext({ ip: '127.0.0.1', url, params: {}, siteUrl, waitUntil });
        const response = await runFunction(fn, request, context);
        await response.body?.cancel();
      }),
    ];
  });
}
