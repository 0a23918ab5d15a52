import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerConditional, isNotModified } from '../src/platform/cache/conditional-request.ts';
import { answerOf, isFresh, mirrorKey, routeCacheMirror } from '../src/platform/cache/route-cache-mirror.ts';
import { startBlobsServer } from './blobs.mts';
import { clientAddress } from './client-address.mts';
import { createContext, type LoadedFunction, loadFunctions, matchFunction, runFunction } from './functions.mts';
import { hasValidHost, readableTarget, requestUrl, routableMethod, servedFilePath } from './request-target.mts';
import { scheduleFunctions } from './schedules.mts';
import { headersFor, loadHeaderRules, loadPageHeaders, sendFile, staticFiles } from './static-files.mts';
import { errorAnswer, webRequest, writeResponse } from './web-response.mts';

export { readableTarget, requestUrl } from './request-target.mts';

export interface SiteOptions {
  host: string;
  port: number;
  siteUrl: string;
  dataDir: string;
  /** The project root: `dist/` and `netlify/functions/` are found below it. */
  root: string;
  /** Run scheduled functions on their `config.schedule` (on by default). */
  schedules?: boolean;
  /** Answer fresh route-cache copies without entering Astro (on by default; off to compare both paths). */
  routeCacheFastPath?: boolean;
}

export interface RunningSite {
  url: string;
  port: number;
  functions: readonly LoadedFunction[];
  close(): Promise<void>;
}

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** What a prerendered file answers to: it is read, never written. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';

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
  const [functions, astro, headerRules] = await Promise.all([
    loadFunctions(path.join(options.root, 'netlify/functions')),
    import(pathToFileURL(entry).href) as Promise<{ handler: NodeHandler }>,
    loadHeaderRules(options.root),
  ]);

  // Static files get the headers netlify.toml gives them on Netlify; dist/ does not change while serving.
  const clientDir = path.join(options.root, 'dist/client');
  const pageHeaders = loadPageHeaders(options.root);
  const files = staticFiles(clientDir);
  const fastPath = options.routeCacheFastPath !== false;

  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    const tracked = promise
      .catch((error) => console.error('waitUntil task failed:', error))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    // CONTRACT: nosniff on every answer, whoever builds it (functions may not set it).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!hasValidHost(req)) return writeResponse(errorAnswer(400, 'invalid Host header'), res);
    const url = requestUrl(req.url ?? '/', req.headers.host);
    if (fastPath && req.method === 'GET') {
      // A fresh copy of what Astro's route cache would answer, without rendering. Only Astro's
      // GET answers are mirrored (Astro caches no other method), so no function is shadowed.
      const cached = routeCacheMirror()?.get(mirrorKey(url));
      if (cached && isFresh(cached)) {
        const notModified = isNotModified('GET', req.headers, cached.status, cached.headers);
        return writeResponse(answerOf(cached, notModified), res);
      }
    }
    const method = routableMethod(req.method);
    const match = matchFunction(functions, url.pathname, method);
    if (match) {
      const abort = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const context = createContext({
        ip: clientAddress(req),
        url,
        params: match.params,
        siteUrl: options.siteUrl,
        waitUntil,
      });
      const response = await runFunction(match.fn, webRequest(req, url, method, abort.signal), context);
      return writeResponse(answerConditional(method, req.headers, response), res);
    }
    // Astro gets the target with broken escapes repaired; the file lookup must see the same path.
    const target = readableTarget(req.url ?? '/');
    const pathname = servedFilePath(target);
    const file = files.get(pathname);
    req.url = target;
    req.method = method;
    if (!file) return astro.handler(req, res);
    const headers = { ...headersFor(headerRules, pathname), ...pageHeaders(pathname) };
    if (method === 'OPTIONS') {
      return writeResponse(new Response(null, { status: 204, headers: { ...headers, Allow: STATIC_ALLOW } }), res);
    }
    if (method !== 'GET' && method !== 'HEAD') {
      return writeResponse(errorAnswer(405, 'method not allowed', { ...headers, Allow: STATIC_ALLOW }), res);
    }
    sendFile(req, res, { clientDir, file, headers, fallback: () => astro.handler(req, res) });
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
