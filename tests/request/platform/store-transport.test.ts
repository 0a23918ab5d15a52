import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../../src/platform/store.ts';

// The Blobs client's transport against a real server on loopback that records what it received
// and answers what a test asks for in the request's path.

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: number;
}

let server: http.Server;
let base: string;
let received: Received[] = [];
const sockets = new Map<object, number>();
const resets = new Set<object>();

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (!sockets.has(request.socket)) sockets.set(request.socket, sockets.size);
    const reused = received.some((earlier) => earlier.socket === sockets.get(request.socket));
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      socket: sockets.get(request.socket) ?? -1,
    });
    if (request.url === '/reset-on-reuse' && reused && !resets.has(request.socket)) {
      // What a server that dropped an idle connection does to the request that reuses it.
      resets.add(request.socket);
      request.socket.destroy();
      return;
    }
    const status = Number(/\/status\/(\d+)/.exec(request.url ?? '')?.[1] ?? 200);
    response.writeHead(status, [
      ['Content-Type', 'application/json'],
      ['ETag', '"v1"'],
      ['Vary', 'Accept'],
      ['Vary', 'Origin'],
      ...(status >= 300 && status < 400 ? [['Location', '/elsewhere']] : []),
      ...(request.url === '/short-keep-alive' ? [['Keep-Alive', 'timeout=2']] : []),
    ]);
    response.end(status === 204 || status === 304 ? undefined : JSON.stringify({ path: request.url }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  received = [];
});

describe('the transport the Blobs client is given', () => {
  it('answers the status, every header and the body, as fetch would', async () => {
    const response = await nodeHttpFetch(`${base}/site/store/key?prefix=a%2F`);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(response.headers.get('vary')).toBe('Accept, Origin');
    expect(await response.json()).toEqual({ path: '/site/store/key?prefix=a%2F' });
  });

  it.each([
    ['a string', '{"n":1}'],
    ['bytes', new TextEncoder().encode('{"n":1}')],
    ['an ArrayBuffer', new TextEncoder().encode('{"n":1}').buffer],
  ])('sends the method, headers and %s as the body', async (_case, body) => {
    const response = await nodeHttpFetch(`${base}/site/store/key`, {
      method: 'put',
      headers: { authorization: 'Bearer t', 'if-none-match': '*' },
      body,
    });
    expect(response.status).toBe(200);
    expect(received).toEqual([
      expect.objectContaining({
        method: 'PUT',
        url: '/site/store/key',
        body: '{"n":1}',
        headers: expect.objectContaining({ authorization: 'Bearer t', 'if-none-match': '*' }),
      }),
    ]);
  });

  it.each([
    ['204 No Content', 'GET', 204],
    ['304 Not Modified', 'GET', 304],
    ['a HEAD request', 'HEAD', 200],
  ])('answers %s without a body', async (_case, method, status) => {
    const response = await nodeHttpFetch(`${base}/status/${status}`, { method });
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('answers an error status and a redirect as they came, without following it', async () => {
    const [failed, moved] = await Promise.all([
      nodeHttpFetch(`${base}/status/412`, { method: 'PUT', body: '{}' }),
      nodeHttpFetch(`${base}/status/302`),
    ]);
    expect([failed.status, moved.status]).toEqual([412, 302]);
    expect(moved.headers.get('location')).toBe('/elsewhere');
    expect(received.map((request) => request.url).sort()).toEqual(['/status/302', '/status/412']);
  });

  it('keeps the connection for the next request', async () => {
    await (await nodeHttpFetch(`${base}/first`)).text();
    await (await nodeHttpFetch(`${base}/second`)).text();
    expect(received.map((request) => request.socket)).toEqual([received[0]?.socket, received[0]?.socket]);
  });

  it("closes a kept connection a second before the server's announced keep-alive timeout", async () => {
    await (await nodeHttpFetch(`${base}/short-keep-alive`)).text();
    await (await nodeHttpFetch(`${base}/short-keep-alive`)).text();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await (await nodeHttpFetch(`${base}/short-keep-alive`)).text();
    const [first, second, third] = received.map((request) => request.socket);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
  });

  it('sends a request once more on a new connection when the kept one turns out closed', async () => {
    await (await nodeHttpFetch(`${base}/first`)).text();
    const response = await nodeHttpFetch(`${base}/reset-on-reuse`, { method: 'PUT', body: '{"n":1}' });
    expect(response.status).toBe(200);
    const [first, dropped, resent] = received.map((request) => request.socket);
    expect(received.map((request) => request.url)).toEqual(['/first', '/reset-on-reuse', '/reset-on-reuse']);
    expect(dropped).toBe(first);
    expect(resent).not.toBe(first);
  });

  it('rejects when nothing listens, so the Blobs client can retry', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, 'close');
    await expect(nodeHttpFetch(`http://127.0.0.1:${port}/key`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it.each([
    ['a Request', () => nodeHttpFetch(new Request(`${base}/as-request`, { method: 'POST', body: 'x' }))],
    ['an abort signal', () => nodeHttpFetch(`${base}/with-signal`, { signal: new AbortController().signal })],
  ])('hands %s to the built-in fetch, which answers it the same', async (_case, call) => {
    const response = await call();
    expect(response.status).toBe(200);
    // The built-in fetch sends its own `user-agent`; node:http sends none.
    expect(received).toEqual([expect.objectContaining({ headers: expect.objectContaining({ 'user-agent': 'node' }) })]);
  });
});
