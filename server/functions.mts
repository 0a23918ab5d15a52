import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Context } from '@netlify/functions';
import { Cron } from 'croner';

/** A Netlify Functions v2 module as the platform sees it: a default handler plus `config`. */
export interface LoadedFunction {
  name: string;
  handler: (request: Request, context: Context) => Response | Promise<Response>;
  config: Config;
  patterns: URLPattern[];
  excluded: URLPattern[];
}

const pattern = (pathname: string) => new URLPattern({ pathname });

/** Every `netlify/functions/<name>.mts` (tests aside), routed by its own `config` as Netlify routes it. */
export async function loadFunctions(dir: string): Promise<LoadedFunction[]> {
  const files = (await readdir(dir).catch(() => [])).filter((file) => /^[^.]+\.(mts|ts|mjs|js)$/.test(file)).sort();
  const functions: LoadedFunction[] = [];
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(dir, file)).href);
    if (typeof module.default !== 'function') continue;
    const name = file.replace(/\.\w+$/, '');
    const config: Config = module.config ?? {};
    const paths = 'path' in config && config.path ? [config.path].flat() : [];
    // A function with neither path nor schedule is reachable at its default URL, as on Netlify.
    if (paths.length === 0 && !('schedule' in config && config.schedule)) paths.push(`/.netlify/functions/${name}`);
    const excluded = ('excludedPath' in config && config.excludedPath ? [config.excludedPath].flat() : []).map(pattern);
    functions.push({ name, handler: module.default, config, patterns: paths.map(pattern), excluded });
  }
  return functions;
}

/** The function that serves this path and method, and its path parameters. */
export function matchFunction(functions: readonly LoadedFunction[], pathname: string, method: string) {
  for (const fn of functions) {
    const methods = fn.config.method ? [fn.config.method].flat() : [method];
    if (!methods.includes(method as never) || fn.excluded.some((pattern) => pattern.test({ pathname }))) continue;
    for (const pattern of fn.patterns) {
      const params = pattern.exec({ pathname })?.pathname.groups;
      if (params) return { fn, params: params as Record<string, string> };
    }
  }
  return undefined;
}

/** The part of Netlify's `Context` our functions use, as a local run can honestly provide it. */
export function createContext(options: {
  ip: string;
  url: URL;
  params: Record<string, string>;
  siteUrl: string;
  waitUntil: (promise: Promise<unknown>) => void;
}): Context {
  const { ip, url, params, siteUrl, waitUntil } = options;
  return { ip, url, params, waitUntil, site: { id: 'local', name: 'site-api', url: siteUrl } } as unknown as Context;
}

/** Runs a function; one that throws is answered as the bug it is (500, no stack). */
export async function runFunction(fn: LoadedFunction, request: Request, context: Context): Promise<Response> {
  try {
    return await fn.handler(request, context);
  } catch (error) {
    console.error(`Function ${fn.name} failed:`, error);
    return Response.json({ error: 'internal error' }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  }
}

/**
 * Runs each scheduled function on its `config.schedule`, the way Netlify invokes it (a POST with
 * `next_run`), so a self-hosted site retries its contact outbox and runs its jobs on its own.
 */
export function scheduleFunctions(
  functions: readonly LoadedFunction[],
  siteUrl: string,
  waitUntil: (promise: Promise<unknown>) => void,
): Cron[] {
  return functions.flatMap((fn) => {
    const schedule = 'schedule' in fn.config ? fn.config.schedule : undefined;
    if (!schedule) return [];
    return new Cron(schedule, { timezone: 'UTC', protect: true }, async (job: Cron) => {
      const url = new URL(`/.netlify/functions/${fn.name}`, siteUrl);
      const body = JSON.stringify({ next_run: job.nextRun()?.toISOString() ?? null });
      const request = new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      const context = createContext({ ip: '127.0.0.1', url, params: {}, siteUrl, waitUntil });
      await (await runFunction(fn, request, context)).body?.cancel();
    });
  });
}
