import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import { isNotModified } from '../src/platform/cache/conditional-request.ts';
import { useLocalRouteCache } from '../src/platform/cache/route-cache.ts';
import { BASE_HEADERS } from '../src/platform/http.ts';
import { startBlobsServer } from './blobs.mts';
import { clientAddress } from './client-address.mts';
import { createContext, loadFunctions, matchFunction, runFunction } from './functions.mts';
import { scheduleFunctions } from './schedules.mts';
import { headersFor, loadHeaderRules, loadPageHeaders, sendFile, staticFiles } from './static-files.mts';

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
  close(): Promise<void>;
}

type AstroHandler = (req: http.IncomingMessage, res: http.ServerResponse, next: undefined, locals: object) => void;

/** What a prerendered file answers to: it is read, never written. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';
// RFC 9112 §3.2: exactly one `Host`, a valid `host [ ":" port ]`; anything else is a 400.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[\w\-.~!$&'()*+,;=%]+)(?::\d*)?$/;

/**
 * The built site in one process, in the order Netlify routes a request
 * (https://docs.netlify.com/build/functions/get-started/#route-requests): the functions in
 * netlify/functions by their own `config`, then the static files with netlify.toml's headers,
 * then Astro's on-demand routes through the Node adapter's handler. Blobs is an embedded store.
 */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  const entry = path.join(options.root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) throw new Error(`No build at ${entry}: run \`npm run build\` (or \`npm start\`) first.`);
  const blobs = await startBlobsServer(options.dataDir);
  const [functions, astro, headerRules] = await Promise.all([
    loadFunctions(path.join(options.root, 'netlify/functions')),
    import(pathToFileURL(entry).href) as Promise<{ handler: AstroHandler }>,
    loadHeaderRules(options.root),
  ]);
  const clientDir = path.join(options.root, 'dist/client');
  const files = staticFiles(clientDir);
  const pageHeaders = loadPageHeaders(options.root);
  // Astro's middleware hands its route cache to the functions through this (src/platform/cache/route-cache.ts).
  const locals = { routeCache: useLocalRouteCache };

  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    const tracked = promise.catch((error) => console.error('waitUntil task failed:', error));
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> => {
    // CONTRACT: nosniff on every answer, whoever builds it.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const hosts = req.headersDistinct.host ?? [];
    if (hosts.length !== 1 || !HOST.test(hosts[0] ?? '') || !URL.canParse(`http://${hosts[0]}/`)) {
      return writeResponse(errorAnswer(400, 'invalid Host header'), res);
    }
    // Fetch's `Request` refuses TRACE (https://fetch.spec.whatwg.org/#forbidden-method): it is routed
    // under a name no route knows either, so each answers it as a method it does not take.
    if (req.method === 'TRACE') req.method = 'UNSUPPORTED';
    if (req.headers['if-none-match'] || req.headers['if-modified-since']) answerNotModified(req, res);
    const request = createRequestFromNodeRequest(req);
    const { pathname } = new URL(request.url);
    const match = matchFunction(functions, pathname, request.method);
    if (match) {
      const url = new URL(request.url);
      const context = createContext({
        ip: clientAddress(req),
        url,
        params: match.params,
        siteUrl: options.siteUrl,
        waitUntil,
      });
      return writeResponse(await runFunction(match.fn, request, context), res);
    }
    const file = files.get(pathname);
    if (!file) return astro.handler(req, res, undefined, locals);
    const headers = { ...headersFor(headerRules, pathname), ...pageHeaders(file) };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (req.method === 'OPTIONS') return void res.writeHead(204, { Allow: STATIC_ALLOW }).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return writeResponse(errorAnswer(405, 'method not allowed', { Allow: STATIC_ALLOW }), res);
    }
    return sendFile(req, res, clientDir, file);
  };
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      // A bug, answered as one: the process (and every other request) stays up.
      console.error(`Request ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) res.destroy();
      else void writeResponse(errorAnswer(500, 'internal error'), res);
    });
  });
  server.keepAliveTimeout = 5_000;
  const jobs = options.schedules === false ? [] : scheduleFunctions(functions, options.siteUrl, waitUntil);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
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

/** A JSON error the runtime answers itself, with the headers every answer carries. */
function errorAnswer(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { error: message },
    {
      status,
      headers: {
        ...BASE_HEADERS,
        ...headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    },
  );
}

/**
 * A conditional GET or HEAD is answered 304 when the answer's validators match, as the CDN in
 * front of the site answers it (RFC 9110 §13.1.2); Node sends a 304 without a body.
 */
function answerNotModified(req: http.IncomingMessage, res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
    const fields = rest.find((arg) => typeof arg === 'object') ?? {};
    const headers = new Headers(Object.entries(fields).map(([name, value]): [string, string] => [name, `${value}`]));
    const notModified = isNotModified(req.method ?? 'GET', req.headers, status, headers);
    return writeHead.call(this, notModified ? 304 : status, ...(rest as []));
  } as typeof res.writeHead;
}
