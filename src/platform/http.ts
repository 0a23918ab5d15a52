import { hash } from 'node:crypto';
import { HttpError } from './errors.ts';

/** Where the API catalog (RFC 9727) is served. */
export const API_CATALOG_PATH = '/.well-known/api-catalog';
/** RFC 9727 §3 / RFC 8288: sent on pages and API responses so clients can find the catalog. */
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`;

/** Headers every response of ours carries (static files get them from netlify.toml); the `Link` is relative. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  Link: API_CATALOG_LINK,
};

/** Netlify's `context.waitUntil`: work finished after the answer (https://docs.netlify.com/build/functions/api/#netlify-specific-context-object). */
export type AfterAnswer = (task: Promise<unknown>) => void;

/** Work the answer does not depend on, handed to `later` or else awaited; a failure is logged, never thrown. */
export async function finishLater(what: string, task: () => Promise<unknown>, later?: AfterAnswer): Promise<void> {
  const run = task().catch((error: unknown) => console.warn(`Could not ${what}: ${(error as Error).message}`));
  if (later) later(run);
  else await run;
}

/** For anything that must never be stored by a shared cache (errors, auth, per-client answers). */
export const NO_STORE = 'no-store';

/** An answer as a plain value that features decide; `respond` builds it. `etag` adds a strong validator. */
export type Answer = { status?: number; headers?: Record<string, string> } & (
  | { json: unknown; etag?: boolean }
  | { csv: string; etag?: boolean }
  /** Another text format (a feed: `application/atom+xml`, `application/feed+json`), `charset=utf-8` added. */
  | { text: string; contentType: string; etag?: boolean }
  | { html: string }
  | { redirect: string }
  | { empty: true }
);

/** The response for an answer; a body is `no-store` unless the answer sets its own `Cache-Control`. */
export function respond(answer: Answer): Response {
  const headers = new Headers(BASE_HEADERS);
  let body: string | null = null;
  if ('json' in answer || 'csv' in answer || 'text' in answer) {
    const [text, type] =
      'json' in answer
        ? [JSON.stringify(answer.json), 'application/json']
        : 'csv' in answer
          ? [answer.csv, 'text/csv']
          : [answer.text, answer.contentType];
    body = text;
    headers.set('Content-Type', `${type}; charset=utf-8`);
    if (answer.etag) headers.set('ETag', `"${hash('sha256', body, 'base64url').slice(0, 27)}"`);
  } else if ('html' in answer) {
    body = answer.html;
    headers.set('Content-Type', 'text/html; charset=utf-8');
  } else if ('redirect' in answer) {
    headers.set('Location', answer.redirect);
  }
  if (!('empty' in answer)) headers.set('Cache-Control', NO_STORE);
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers.set(name, value);
  return new Response(body, { status: answer.status ?? 200, headers });
}

/**
 * A response built by a library (the MCP SDK's transport, Astro's pages) with the base headers it
 * lacks and `headers` set: on Netlify nothing adds them to a function's or page's answer.
 */
export function withBaseHeaders(response: Response, headers: Record<string, string> = {}): Response {
  const missing = Object.entries(BASE_HEADERS).filter(([name]) => !response.headers.has(name));
  const added = [...missing, ...Object.entries(headers)];
  try {
    for (const [name, value] of added) response.headers.set(name, value);
    return response;
  } catch {
    // Headers of some responses (e.g. a fetch result) are immutable: answer a copy.
    const copy = new Response(response.body, response);
    for (const [name, value] of added) copy.headers.set(name, value);
    return copy;
  }
}

/** The JSON body a client sees for an HttpError (also the OpenAPI examples of error responses). */
export function errorBody(error: HttpError): Record<string, unknown> {
  return { error: error.message, ...error.details };
}

/** Turns any thrown value into the response a client sees; unknown errors are logged as bugs. */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  if (error instanceof HttpError) {
    return respond({ status: error.status, json: errorBody(error), headers: { ...headers, ...error.headers } });
  }
  console.error('Unexpected error while answering a request:', error);
  return respond({ status: 500, json: { error: 'internal error' }, headers });
}
