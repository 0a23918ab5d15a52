import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Context } from '@netlify/functions';

/** A Netlify Functions v2 module as the platform sees it: a default handler plus `config`. */
export interface LoadedFunction {
  name: string;
  handler: (request: Request, context: Context) => Response | Promise<Response>;
  config: Config;
  patterns: URLPattern[];
  excluded: URLPattern[];
  methods: string[] | undefined;
}

const FUNCTION_FILE = /\.(mts|ts|mjs|js)$/;

/** Loads every function in `dir` (top-level files, or `<name>/index.*`), as Netlify would deploy them. */
export async function loadFunctions(dir: string): Promise<LoadedFunction[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const functions: LoadedFunction[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    let file: string | undefined;
    let name: string;
    if (entry.isFile() && FUNCTION_FILE.test(entry.name) && !entry.name.includes('.test.')) {
      file = path.join(dir, entry.name);
      name = entry.name.replace(FUNCTION_FILE, '');
    } else if (entry.isDirectory()) {
      const inner = (await readdir(path.join(dir, entry.name))).find((f) => /^index\.(mts|ts|mjs|js)$/.test(f));
      if (!inner) continue;
      file = path.join(dir, entry.name, inner);
      name = entry.name;
    } else {
      continue;
    }
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown; config?: Config };
    if (typeof module.default !== 'function') continue;
    const config: Config = module.config ?? {};
    const paths = 'path' in config && config.path ? [config.path].flat() : [];
    const excludedPaths = 'excludedPath' in config && config.excludedPath ? [config.excludedPath].flat() : [];
    const methods = config.method ? [config.method].flat().map((m) => m.toUpperCase()) : undefined;
    // A function with neither path nor schedule is reachable at its default URL, as on Netlify.
    if (paths.length === 0 && !('schedule' in config && config.schedule)) paths.push(`/.netlify/functions/${name}`);
    functions.push({
      name,
      handler: module.default as LoadedFunction['handler'],
      config,
      patterns: paths.map((pathname) => new URLPattern({ pathname })),
      excluded: excludedPaths.map((pathname) => new URLPattern({ pathname })),
      methods,
    });
  }
  return functions;
}

/** The function that serves this path and method, and its path parameters. */
export function matchFunction(
  functions: readonly LoadedFunction[],
  pathname: string,
  method: string,
): { fn: LoadedFunction; params: Record<string, string> } | undefined {
  for (const fn of functions) {
    if (fn.methods && !fn.methods.includes(method)) continue;
    if (fn.excluded.some((pattern) => pattern.test({ pathname }))) continue;
    for (const pattern of fn.patterns) {
      const match = pattern.exec({ pathname });
      if (match) {
        const params = Object.fromEntries(
          Object.entries(match.pathname.groups).filter((entry): entry is [string, string] => entry[1] !== undefined),
        );
        return { fn, params };
      }
    }
  }
  return undefined;
}

/** The subset of Netlify's `Context` that a local run can honestly provide. */
export function createContext(options: {
  ip: string;
  url: URL;
  params: Record<string, string>;
  siteUrl: string;
  waitUntil: (promise: Promise<unknown>) => void;
}): Context {
  const context = {
    account: { id: 'local' },
    cookies: undefined,
    deploy: { context: 'dev', id: 'local', published: false },
    geo: {},
    ip: options.ip,
    params: options.params,
    requestId: crypto.randomUUID(),
    server: { region: 'local' },
    site: { id: 'local', name: 'site-api', url: options.siteUrl },
    url: options.url,
    json: (input: unknown) => Response.json(input),
    log: (...args: unknown[]) => console.info(...args),
    waitUntil: options.waitUntil,
  };
  return context as unknown as Context;
}

/** Runs a function on a Web `Request`; a function that throws is answered as the bug it is (500, no stack). */
export async function runFunction(fn: LoadedFunction, request: Request, context: Context): Promise<Response> {
  try {
    return await fn.handler(request, context);
  } catch (error) {
    console.error(`Function ${fn.name} failed:`, error);
    return Response.json({ error: 'internal error' }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  }
}
