import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Cron } from 'croner';
import { isFresh, mirrorKey, routeCacheMirror } from '../src/cache/route-cache-mirror.ts';
import { startBlobsServer } from './blobs.mts';
import { createContext, type LoadedFunction, loadFunctions, matchFunction } from './functions.mts';
import { headersFor, loadHeaderRules, loadPageHeaders, staticPathnames } from './static-headers.mts';

export interface SiteOptions {
  host: string;
  port: number;
  siteUrl: string;
  dataDir: string;
  /** The project root: `dist/` and `netlify/functions/` are found below it. */
  root: string;
  /** Run scheduled functions on their `config.schedule` (on by default). */
  schedules?: boolean;
}

export interface RunningSite {
  url: string;
  port: number;
  functions: readonly LoadedFunction[];
  close(): Promise<void>;
}

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * One process that behaves like the deployed site: an embedded Netlify Blobs server, the
 * functions in netlify/functions routed by their own `config`, then the prerendered files and
 * Astro's on-demand routes; the order Netlify uses
 * (https://docs.netlify.com/build/functions/get-started/#route-requests).
 */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  const entry = path.join(options.root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) throw new Error(`No build at ${entry}: run \`npm run build\` (or \`npm start\`) first.`);

  const blobs = await startBlobsServer(options.dataDir);

  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.ASTRO_NODE_LOGGING = 'disabled';
  const [functions, astro] = await Promise.all([
    loadFunctions(path.join(options.root, 'netlify/functions')),
    import(pathToFileURL(entry).href) as Promise<{ handler: NodeHandler }>,
  ]);

  // Static files get the headers netlify.toml gives them on Netlify; dist/ does not change while serving.
  const headerRules = loadHeaderRules(options.root);
  const pageHeaders = loadPageHeaders(options.root);
  const staticPaths = staticPathnames(path.join(options.root, 'dist/client'));

  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    const tracked = promise
      .catch((error) => console.error('waitUntil task failed:', error))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  const server = http.createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    answerNotModified(req, res);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    if (req.method === 'GET' || req.method === 'HEAD') {
      // Fast path: a fresh copy that Astro's route cache holds is answered without rendering.
      // Only Astro-rendered GETs are ever mirrored, so no function route can be shadowed.
      const cached = routeCacheMirror()?.get(mirrorKey(url));
      if (cached && isFresh(cached)) {
        res.writeHead(cached.status, cached.headers.flat());
        res.end(req.method === 'HEAD' ? undefined : cached.body);
        return;
      }
    }
    const match = matchFunction(functions, url.pathname, req.method ?? 'GET');
    if (match) {
      const context = createContext({
        ip: clientIp(req),
        url,
        params: match.params,
        siteUrl: options.siteUrl,
        waitUntil,
      });
      void runFunction(match.fn, req, res, url, context);
      return;
    }
    const pathname = decodedPathname(url);
    if (staticPaths.has(pathname)) {
      const headers = { ...headersFor(headerRules, pathname), ...pageHeaders(pathname) };
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      keepHeaders(res, Object.keys(headers));
    }
    astro.handler(req, res);
  });
  server.keepAliveTimeout = 5_000;

  const jobs = options.schedules === false ? [] : scheduleFunctions(functions, options.siteUrl, waitUntil);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    functions,
    async close() {
      for (const job of jobs) job.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running get a moment, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      await Promise.allSettled([...pending]);
      await blobs.stop();
    },
  };
}

/** Answers `If-None-Match` with 304 for any GET or HEAD whose 200 carries a matching ETag, as a CDN does. */
function answerNotModified(req: http.IncomingMessage, res: http.ServerResponse): void {
  const condition = req.headers['if-none-match'];
  if (!condition || (req.method !== 'GET' && req.method !== 'HEAD')) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) as
      | http.OutgoingHttpHeaders
      | string[]
      | undefined;
    const etag = etagIn(headers) ?? this.getHeader('etag');
    if (status === 200 && typeof etag === 'string' && etagMatches(condition, etag)) {
      // Node sends no body for a 304 and ignores later writes.
      return writeHead.call(this, 304, ...(rest as []));
    }
    return writeHead.call(this, status, ...(rest as []));
  } as typeof res.writeHead;
}

/** The ETag among headers given to writeHead, as an object or as Node's flat [name, value, …] list. */
function etagIn(headers: http.OutgoingHttpHeaders | string[] | undefined): unknown {
  if (Array.isArray(headers)) {
    const index = headers.findIndex((item, i) => i % 2 === 0 && item.toLowerCase() === 'etag');
    return index === -1 ? undefined : headers[index + 1];
  }
  return headers?.etag ?? headers?.ETag;
}

/**
 * Makes the headers set so far final: @astrojs/node 11.1.6 looks a page's static headers up by
 * substring (withastro/astro#16673) and would replace `/parks/`'s policy with another page's.
 */
function keepHeaders(res: http.ServerResponse, names: readonly string[]): void {
  const kept = new Set(names.map((name) => name.toLowerCase()));
  const setHeader = res.setHeader;
  res.setHeader = function (this: http.ServerResponse, name: string, value: number | string | readonly string[]) {
    return kept.has(name.toLowerCase()) ? this : setHeader.call(this, name, value);
  } as typeof res.setHeader;
}

/** RFC 9110 §13.1.2: weak comparison, `*` matches anything. */
export function etagMatches(condition: string, etag: string): boolean {
  if (condition.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return condition.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}

/** The path as the static file server resolves it (percent-decoded), or the raw path if malformed. */
function decodedPathname(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

function clientIp(req: http.IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

async function runFunction(
  fn: LoadedFunction,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  context: ReturnType<typeof createContext>,
): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method ?? 'GET',
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [value].flat().map((v): [string, string] => [name, v]),
    ),
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: abort.signal,
    // @ts-expect-error Node's fetch needs `duplex` for a streamed request body.
    duplex: 'half',
  });
  let response: Response;
  try {
    response = await fn.handler(request, context);
  } catch (error) {
    console.error(`Function ${fn.name} failed:`, error);
    response = Response.json({ error: 'internal error' }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  }
  await writeWebResponse(response, res);
}

async function writeWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body || res.req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  try {
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch {
    res.destroy();
  }
}

/** Runs each scheduled function on its own `config.schedule`, the way Netlify invokes it. */
function scheduleFunctions(
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
        try {
          const response = await fn.handler(request, context);
          await response.body?.cancel();
        } catch (error) {
          console.error(`Scheduled function ${fn.name} failed:`, error);
        }
      }),
    ];
  });
}
