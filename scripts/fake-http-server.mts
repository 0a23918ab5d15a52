import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The core of the local stand-ins for upstream services (scripts/fake-job-services.mts,
 * scripts/fake-photo-graph.mts): a real HTTP server on 127.0.0.1 that records every request and
 * can be told to misbehave, around a handler that plays the real service.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
export const JOB_FIXTURES_DIR = path.resolve(here, '../fixtures/jobs');
export const PHOTO_FIXTURES_DIR = path.resolve(here, '../fixtures/photo-feed');

export const readFixture = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

/** Ways a fake can misbehave; `hang` never answers, `reset` drops the connection. */
export type FaultMode = 'ok' | 'error-500' | 'error-503' | 'hang' | 'reset' | 'garbage';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  mode: FaultMode;
  /** Answers with this mode for the next N requests, then goes back to `mode`. */
  failNext(count: number, mode: FaultMode): void;
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, res: http.ServerResponse) => void;

export async function startFake(handle: Handler, port = 0): Promise<FakeServer> {
  const sockets = new Set<Socket>();
  let override: { count: number; mode: FaultMode } | null = null;
  const fake: FakeServer = {
    url: '',
    requests: [],
    mode: 'ok',
    failNext(count, mode) {
      override = { count, mode };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      fake.requests.push(request);
      let mode = fake.mode;
      if (override && override.count > 0) {
        mode = override.mode;
        override.count--;
      }
      switch (mode) {
        case 'hang':
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'error-500':
          res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Internal Server Error</h1>');
          return;
        case 'error-503':
          res.writeHead(503, { 'Content-Type': 'text/html', 'Retry-After': '30' }).end('<h1>Service Unavailable</h1>');
          return;
        case 'garbage':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[{"id":');
          return;
        default:
          handle(request, res);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export const json = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', ...headers }).end(body);
