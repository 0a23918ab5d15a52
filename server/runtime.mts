import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import { useLocalRouteCache } from '../src/platform/cache/route-cache.ts';
import { getConfig } from '../src/platform/config.ts';
import { respond } from '../src/platform/http.ts';
import { startBlobsServer } from './blobs.mts';
import { clientAddressOf } from './client-address.mts';
import { createContext, loadFunctions, matchFunction, scheduleFunctions } from './functions.mts';
import { headersFor, loadHeaderRules, loadPageHeaders, sendFile, staticFiles } from './static-files.mts';

type AstroHandler = (req: http.IncomingMessage, res: http.ServerResponse, next: undefined, locals: object) => void;
type SiteOptions = {
  host: string;
  port: number;
  siteUrl: string;
  dataDir: string;
  root: string;
  /** Whether this process runs the scheduled functions on their schedules (LOCAL_SCHEDULES). */
  schedules?: boolean;
};
export type RunningSite = Awaited<ReturnType<typeof startSite>>;

/** What a prerendered file answers to: it is read, never written. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';
// RFC 9112 §3.2: exactly one `Host`, a valid `host [ ":" port ]`; anything else is a 400.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[\w\-.~!$&'()*+,;=%]+)(?::\d*)?$/;

const errorAnswer = (status: number, error: string, headers: Record<string, string> = {}) =>
  respond({ status, json: { error }, headers });

/**
 * The built site under `root` in one process, routed in Netlify's order
 * (https://docs.netlify.com/build/functions/get-started/#route-requests): the functions in
 * netlify/functions by their own `config`, static files with netlify.toml's headers, then Astro's
 * on-demand routes through the Node adapter's handler; Blobs is an embedded store.
 */
export async function startSite({ host, port, siteUrl, dataDir, root, schedules = true }: SiteOptions) {
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) throw new Error(`No build at ${entry}: run \`npm run build\` (or \`npm start\`) first.`);
  const blobs = await startBlobsServer(dataDir);
  const [functions, astro, headerRules] = await Promise.all([
    loadFunctions(path.join(root, 'netlify/functions')),
    import(pathToFileURL(entry).href) as Promise<{ handler: AstroHandler }>,
    loadHeaderRules(root),
  ]);
  const clientDir = path.join(root, 'dist/client');
  const files = staticFiles(clientDir);
  const pageHeaders = loadPageHeaders(root, files);
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    const tracked = promise.catch((error) => console.error('waitUntil task failed:', error));
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> => {
    const hosts = req.headersDistinct.host ?? [];
    if (hosts.length !== 1 || !HOST.test(hosts[0] ?? '') || !URL.canParse(`http://${hosts[0]}/`)) {
      return writeResponse(errorAnswer(400, 'invalid Host header'), res);
    }
    // Fetch's `Request` refuses TRACE (https://fetch.spec.whatwg.org/#forbidden-method): it goes on
    // under a name no route knows either, so each answers it as a method it does not take.
    if (req.method === 'TRACE') req.method = 'UNSUPPORTED';
    const request = createRequestFromNodeRequest(req);
    const url = new URL(request.url);
    const match = matchFunction(functions, url.pathname, request.method);
    if (match) {
      const { remoteAddress = '' } = req.socket;
      const ip = clientAddressOf(remoteAddress, req.headers['x-forwarded-for'], getConfig().TRUST_PROXY);
      const context = createContext({ ip, url, params: match.params, siteUrl, waitUntil });
      return writeResponse(await match.fn.handler(request, context), res);
    }
    const file = files.get(url.pathname);
    if (!file) {
      // Astro answers a few requests before src/middleware.ts runs (its redirect of `//`): they get
      // the one base header such an answer can carry; the middleware sets it on every other.
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Through `locals`, src/middleware.ts hands Astro's route cache to the functions.
      return astro.handler(req, res, undefined, { routeCache: useLocalRouteCache });
    }
    const headers = { ...headersFor(headerRules, url.pathname), ...pageHeaders.get(file) };
    if (req.method === 'GET' || req.method === 'HEAD') return sendFile(req, res, clientDir, file, headers);
    if (req.method === 'OPTIONS') return res.writeHead(204, { ...headers, Allow: STATIC_ALLOW }).end();
    return writeResponse(errorAnswer(405, 'method not allowed', { ...headers, Allow: STATIC_ALLOW }), res);
  };
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      // A bug (a function that throws, too), answered as one: the process stays up.
      console.error(`Request ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) res.destroy();
      else void writeResponse(errorAnswer(500, 'internal error'), res);
    });
  });
  server.keepAliveTimeout = 5_000;
  const jobs = schedules ? scheduleFunctions(functions, siteUrl, waitUntil) : [];
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`,
    /** The scheduled functions this process runs. */
    scheduled: jobs.map(({ name }) => name),
    async close() {
      for (const { job } of jobs) job.stop();
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
