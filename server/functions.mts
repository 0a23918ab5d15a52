import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '@netlify/functions';
import { Cron } from 'croner';

type Paths = string | string[];
/** The fields of a function's `config` (@netlify/functions' `Config`) that route and schedule it. */
type FunctionConfig = { path?: Paths; excludedPath?: Paths; method?: Paths; schedule?: string };

/** A Netlify Functions v2 module as the platform sees it: a default handler plus `config`. */
interface LoadedFunction {
  name: string;
  handler: (request: Request, context: Context) => Response | Promise<Response>;
  config: FunctionConfig;
  patterns: URLPattern[];
  excluded: URLPattern[];
}

const patterns = (paths: Paths | undefined) => [paths ?? []].flat().map((pathname) => new URLPattern({ pathname }));

/** Every `netlify/functions/<name>.mts` (tests aside), routed by its own `config` as Netlify routes it. */
export async function loadFunctions(dir: string): Promise<LoadedFunction[]> {
  const files = (await readdir(dir).catch(() => [])).filter((file) => /^[^.]+\.(mts|ts|mjs|js)$/.test(file)).sort();
  const functions: LoadedFunction[] = [];
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(dir, file)).href);
    if (typeof module.default !== 'function') continue;
    const name = file.replace(/\.\w+$/, '');
    const config: FunctionConfig = module.config ?? {};
    // A function with neither path nor schedule is reachable at its default URL, as on Netlify.
    const paths = config.path || (config.schedule ? [] : `/.netlify/functions/${name}`);
    const excluded = patterns(config.excludedPath);
    functions.push({ name, handler: module.default, config, patterns: patterns(paths), excluded });
  }
  return functions;
}

/** The function that serves this path and method, and its path parameters. */
export function matchFunction(functions: readonly LoadedFunction[], pathname: string, method: string) {
  for (const fn of functions) {
    const methods = fn.config.method ? [fn.config.method].flat() : [method];
    if (!methods.includes(method) || fn.excluded.some((pattern) => pattern.test({ pathname }))) continue;
    for (const pattern of fn.patterns) {
      const params = pattern.exec({ pathname })?.pathname.groups;
      if (params) return { fn, params: params as Record<string, string> };
    }
  }
  return undefined;
}

/** The part of Netlify's `Context` our functions use, as a local run can honestly provide it. */
export function createContext(options: Pick<Context, 'ip' | 'url' | 'params' | 'waitUntil'> & { siteUrl: string }) {
  const { siteUrl, ...context } = options;
  return { ...context, site: { id: 'local', name: 'site-api', url: siteUrl } } as unknown as Context;
}

/** The request and context Netlify invokes a scheduled function with: a POST to its default URL with `next_run`. */
export function scheduledInvocation(
  name: string,
  options: { siteUrl: string; nextRun: Date | null; waitUntil: Context['waitUntil'] },
): [Request, Context] {
  const { siteUrl, nextRun, waitUntil } = options;
  const url = new URL(`/.netlify/functions/${name}`, siteUrl);
  const body = JSON.stringify({ next_run: nextRun?.toISOString() ?? null });
  const request = new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  return [request, createContext({ ip: '127.0.0.1', url, params: {}, siteUrl, waitUntil })];
}

/**
 * Runs each scheduled function on its `config.schedule`, as Netlify invokes it, so a self-hosted
 * site retries its contact outbox and runs its jobs on its own; each job with its function's name.
 */
export function scheduleFunctions(functions: LoadedFunction[], siteUrl: string, waitUntil: Context['waitUntil']) {
  return functions.flatMap((fn) => {
    const { schedule } = fn.config;
    if (!schedule) return [];
    const onError = (error: unknown) => console.error(`Function ${fn.name} failed:`, error);
    const job = new Cron(schedule, { timezone: 'UTC', protect: true, catch: onError }, async (self: Cron) => {
      const invocation = scheduledInvocation(fn.name, { siteUrl, nextRun: self.nextRun(), waitUntil });
      await (await fn.handler(...invocation)).body?.cancel();
    });
    return [{ name: fn.name, job }];
  });
}
