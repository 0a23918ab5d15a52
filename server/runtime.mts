import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Cron } from 'croner';
import { isFresh, mirrorKey, routeCacheMirror } from '../src/cache/route-cache-mirror.ts';
import { BASE_HEADERS } from '../src/lib/http.ts';
import { startBlobsServer } from './blobs.mts';
import { clientAddress } from './client-address.mts';
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

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!hasValidHost(req)) {
      answerError(res, 400, 'invalid Host header');
      return;
    }
    answerNotModified(req, res);
    const url = requestUrl(req.url ?? '/', req.headers.host);
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
    if (FORBIDDEN_BY_FETCH.has(req.method ?? '')) req.method = UNSUPPORTED_METHOD;
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
    // Astro gets the target with broken escapes repaired; the header lookup must see the same path.
    const target = readableTarget(req.url ?? '/');
    const pathname = servedFilePath(target);
    if (staticPaths.has(pathname)) {
      const headers = { ...headersFor(headerRules, pathname), ...pageHeaders(pathname) };
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      keepHeaders(res, Object.keys(headers));
      // A file is read, never written: GET and HEAD serve it, OPTIONS says so, anything else is 405.
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { Allow: STATIC_ALLOW }).end();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', STATIC_ALLOW);
        answerError(res, 405, 'method not allowed');
        return;
      }
    }
    req.url = target;
    astro.handler(req, res);
  };
  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      // A bug, answered as one: the process (and every other request) stays up.
      console.error(`Request ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) res.destroy();
      else answerError(res, 500, 'internal error');
    }
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

/**
 * The path of the file the static server sends for a request-target: @astrojs/node normalizes the
 * raw path, then `send` percent-decodes it and normalizes again. Headers are looked up by this
 * path, so `/%2F/`, `//favicon.svg` and `/a//..` get those of the file they are served.
 */
function servedFilePath(target: string): string {
  const raw = path.posix.normalize(target.split(/[?#]/)[0] || '/');
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {}
  return path.posix.normalize(decoded);
}

/** What a prerendered file answers to. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';

/** A JSON error the runtime answers itself, with the headers every answer carries. */
function answerError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(JSON.stringify({ error: message }));
}

// RFC 3986 §3.2.2–3.2.3: `host [ ":" port ]`, the host an IP literal or a reg-name.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[\w\-.~!$&'()*+,;=%]+)(?::\d*)?$/;

/**
 * RFC 9112 §3.2: a request without exactly one `Host`, or with one that is not a valid field
 * value, is answered 400. Node's parser lets any value through; an empty one or one a URL parser
 * cannot read would make Astro's adapter route the request by a path it makes up.
 */
function hasValidHost(req: http.IncomingMessage): boolean {
  const hosts = req.headersDistinct.host ?? [];
  return hosts.length === 1 && HOST.test(hosts[0] as string) && URL.canParse(`http://${hosts[0]}/`);
}

/**
 * The URL of a request. In origin-form (`/path?query`, RFC 9112 §3.2.1) the path and query are the
 * request-target's and the authority is `Host`'s: a `Host` cannot move the path, and a `//` at
 * the start of the path is not read as an authority. An absolute-form target carries its own
 * authority (§3.2.2). Never throws.
 */
export function requestUrl(target: string, host: string | undefined): URL {
  if (!target.startsWith('/')) return URL.parse(target) ?? new URL('http://localhost/');
  const url = URL.parse(`http://localhost${target}`) ?? new URL('http://localhost/');
  if (host) url.host = host; // a setter: a host it cannot parse leaves the URL as it was
  return url;
}

/**
 * Fetch's `Request` refuses these methods (https://fetch.spec.whatwg.org/#forbidden-method), so
 * Astro's adapter would throw on them. Only TRACE reaches the request listener (Node handles
 * CONNECT apart and its parser does not know TRACK). No route supports it: it is handed on under
 * a name no route knows either, so that each route answers it as any method it does not support
 * (405 with its `Allow`, or the 404 of an unknown path).
 */
const FORBIDDEN_BY_FETCH = new Set(['CONNECT', 'TRACE', 'TRACK']);
const UNSUPPORTED_METHOD = 'UNSUPPORTED';

/**
 * Astro's Node adapter refuses a whole request with a bare text 400 when `decodeURI` cannot read
 * its target: a `%` that starts no escape, or escapes that are not UTF-8. URL parsing takes such
 * a target: a stray `%` stands for itself and bytes that are not UTF-8 read
 * as U+FFFD (URL Standard, percent-decode; Encoding Standard, UTF-8 decode). This writes the target
 * the way it reads (`%` as `%25`, broken sequences as `%EF%BF%BD`), so Astro routes it and the
 * endpoint sees the same query values; a target `decodeURI` reads is returned as it is.
 */
export function readableTarget(target: string): string {
  try {
    decodeURI(target);
    return target;
  } catch {
    return target.replace(/(?:%[0-9A-Fa-f]{2})+|%/g, (run) => {
      if (run === '%') return '%25';
      try {
        decodeURIComponent(run);
        return run;
      } catch {
        const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
        return encodeURIComponent(new TextDecoder().decode(bytes));
      }
    });
  }
}

function clientIp(req: http.IncomingMessage): string {
  return clientAddress(req);
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
  let response: Response;
  try {
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
