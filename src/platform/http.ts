import { createHash } from 'node:crypto';
import { HttpError } from './errors.ts';

/** Where the API catalog (RFC 9727) is served. */
export const API_CATALOG_PATH = '/.well-known/api-catalog';

/** RFC 9727 §3 / RFC 8288: sent on pages and API responses so clients can find the catalog. */
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`;

/**
 * Headers every response of ours carries. `Link` points clients at the API catalog (RFC 9727
 * §3); relative, so it resolves against whatever host the request reached. Static files get the
 * same two from netlify.toml (and the local runtime reads them from there).
 */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  Link: API_CATALOG_LINK,
};

/** Public, anonymous GET responses may be read by any origin. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Retry-After, Link',
};

/**
 * Browsers revalidate on every use (cheap with the ETag) while the CDN or the route cache keeps
 * the response; see https://docs.netlify.com/platform/caching/ ("Cache-Control" vs CDN headers).
 */
export const REVALIDATE_IN_BROWSER = 'public, max-age=0, must-revalidate';

/**
 * Hands work the answer does not depend on to the platform, to finish after the response is sent:
 * Netlify's `context.waitUntil` (https://docs.netlify.com/build/functions/api/#netlify-specific-context-object).
 */
export type AfterAnswer = (task: Promise<unknown>) => void;

/**
 * Housekeeping: work the answer does not depend on. With `later` it is handed to the platform to
 * finish after the answer; without, it runs and is waited for here. Either way its failure is
 * logged ("Could not <what>: …") and fails nothing, so the promise returned never rejects.
 */
export async function finishLater(
  what: string,
  task: () => Promise<unknown>,
  later: AfterAnswer | undefined,
): Promise<void> {
  const run = task().then(
    () => undefined,
    (error: unknown) => console.warn(`Could not ${what}: ${(error as Error).message}`),
  );
  if (later) later(run);
  else await run;
}

/** For anything that must never be stored by a shared cache (errors, auth, per-client answers). */
export const NO_STORE = 'no-store';

/** A strong validator derived from the exact bytes sent. */
export function etagFor(body: string | Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** A JSON response with our base headers and, when `etag` is set, a validator for the body. */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string>; etag?: boolean } = {},
): Response {
  const text = JSON.stringify(body);
  const headers = new Headers({ ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  if (init.etag) headers.set('ETag', etagFor(text));
  return new Response(text, { status: init.status ?? 200, headers });
}

/** The JSON body a client sees for an HttpError (also the OpenAPI examples of error responses). */
export function errorBody(error: HttpError): Record<string, unknown> {
  return { error: error.message, ...error.details };
}

/** Turns any thrown value into the response a client sees; unknown errors are logged as bugs. */
export function errorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  if (error instanceof HttpError) {
    return jsonResponse(errorBody(error), {
      status: error.status,
      headers: { 'Cache-Control': NO_STORE, ...headers, ...error.headers },
    });
  }
  console.error('Unexpected error while answering a request:', error);
  return jsonResponse({ error: 'internal error' }, { status: 500, headers: { 'Cache-Control': NO_STORE, ...headers } });
}

/** Answers a CORS preflight for a public read-only resource. */
export function publicPreflight(allow: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...BASE_HEADERS,
      ...PUBLIC_CORS_HEADERS,
      'Access-Control-Allow-Methods': allow.join(', '),
      'Access-Control-Allow-Headers': 'If-None-Match',
      'Access-Control-Max-Age': '86400',
      Allow: allow.join(', '),
    },
  });
}

/**
 * An answer as a plain value, for code that decides what to answer but should not build the
 * `Response` itself (a feature's view, a scheduled job's record); `respond` builds it.
 */
export type Answer = { status: number; headers?: Record<string, string> } & (
  | { json: unknown }
  | { html: string }
  | { redirect: string }
  | { empty: true }
);

/** The response for an answer, with our base headers; HTML and redirects are never stored by a cache. */
export function respond(answer: Answer): Response {
  const headers = answer.headers ?? {};
  if ('json' in answer) return jsonResponse(answer.json, { status: answer.status, headers });
  const base = { ...BASE_HEADERS, ...headers };
  if ('html' in answer) {
    return new Response(answer.html, {
      status: answer.status,
      headers: { ...base, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': NO_STORE },
    });
  }
  if ('redirect' in answer) {
    return new Response(null, {
      status: answer.status,
      headers: { ...base, Location: answer.redirect, 'Cache-Control': NO_STORE },
    });
  }
  return new Response(null, { status: answer.status, headers: base });
}

/**
 * What a scheduled function answers: the run record (no secrets: a hook is kept as a digest),
 * 500 when the run failed so that the platform's function log marks it.
 */
export function runResponse(run: { outcome: 'success' | 'failure' }): Response {
  return jsonResponse(run, { status: run.outcome === 'success' ? 200 : 500, headers: { 'Cache-Control': NO_STORE } });
}
