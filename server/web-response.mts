import type http from 'node:http';
import { Readable } from 'node:stream';
import { BASE_HEADERS } from '../src/platform/http.ts';

/** A Web `Response`, or a cached answer whose body is already in memory. */
export interface Answer {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | Uint8Array | null;
}

/**
 * The one place where the runtime turns a Web `Response` into a Node response (functions, fresh
 * route-cache copies, its own errors). It writes the way Astro's adapter does (astro/app/node
 * `writeResponse`: status, headers, then the body), so a cached copy and Astro's own answer leave
 * the process alike. HEAD gets the headers only.
 */
export async function writeResponse(response: Answer, res: http.ServerResponse): Promise<void> {
  const headers: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (response.body instanceof Uint8Array) {
    if (res.req.method !== 'HEAD') res.write(response.body);
    res.end();
    return;
  }
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

/** A Node request as a Web `Request` (its body streamed), the way a Netlify function receives it. */
export function webRequest(req: http.IncomingMessage, url: URL, method: string, signal: AbortSignal): Request {
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [value].flat().map((v): [string, string] => [name, v]),
    ),
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal,
    // @ts-expect-error Node's fetch needs `duplex` for a streamed request body.
    duplex: 'half',
  });
}

/** A JSON error the runtime answers itself, with the headers every answer carries (plus `headers`). */
export function errorAnswer(status: number, message: string, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  for (const [name, value] of Object.entries(BASE_HEADERS)) all.set(name, value);
  all.set('Content-Type', 'application/json; charset=utf-8');
  all.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify({ error: message }), { status, headers: all });
}
