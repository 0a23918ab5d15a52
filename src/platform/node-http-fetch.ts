import http from 'node:http';
import https from 'node:https';

/**
 * The `fetch` the Blobs client is given (`getStore({ fetch })`, a documented option): the same
 * exchange over `node:http`/`node:https` instead of Node's built-in fetch. A cold instance's first
 * requests to Blobs are what its first answer waits for, and the built-in fetch (undici) spends
 * about 15 ms of CPU getting going on its first request and more on a first burst in parallel;
 * `node:http` parses in C++ and starts in a few (docs/netlify.md, "Cold start").
 *
 * It covers what the Blobs client sends: a URL, a method, headers, and a string or bytes as the
 * body, and answers with the whole body read (Blobs records are small JSON). Anything else (a
 * `Request`, a streamed body, an abort signal) goes to the built-in fetch unchanged. Unlike
 * `fetch`, it follows no redirect: Blobs answers none, so a 3xx is handed back as it came.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const;

/** Statuses whose responses have no body, and that `new Response()` refuses one for. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

type SimpleBody = string | Uint8Array | ArrayBuffer | undefined | null;

const isSimpleBody = (body: unknown): body is SimpleBody =>
  body == null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;

export const nodeHttpFetch: typeof fetch = (input, init = {}) => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const { body } = init;
  if (href === undefined || !isSimpleBody(body) || init.signal) return fetch(input, init);
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const [client, agent] = url.protocol === 'https:' ? [https, agents['https:']] : [http, agents['http:']];
  return new Promise<Response>((resolve, reject) => {
    const request = client.request(url, { method, headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const status = incoming.statusCode ?? 0;
        const answerHeaders = new Headers();
        const raw = incoming.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) answerHeaders.append(raw[i] ?? '', raw[i + 1] ?? '');
        const withoutBody = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
        try {
          resolve(
            new Response(withoutBody ? null : Buffer.concat(chunks), {
              status,
              statusText: incoming.statusMessage ?? '',
              headers: answerHeaders,
            }),
          );
        } catch (error) {
          reject(error); // a status `Response` cannot carry (1xx): a broken server, not ours
        }
      });
    });
    request.on('error', reject);
    request.end(body instanceof ArrayBuffer ? Buffer.from(body) : (body ?? undefined));
  });
};
