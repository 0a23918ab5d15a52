import type { NetlifyLocals } from '@astrojs/netlify';
import type { APIContext, APIRoute } from 'astro';
import { MethodNotAllowedError } from './errors.ts';
import { type AfterAnswer, errorResponse, respond } from './http.ts';

/** Public, anonymous GET responses may be read by any origin. */
const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Retry-After, Link',
};

/**
 * What a public GET answers: the body, its own headers and, when the route cache (Netlify's CDN)
 * may keep it, for how long. Its cache tags are `<kind>` and, for one park, `<kind>:<park>` and
 * `park:<park>`, so a purge can be as narrow as one park's answer of one kind.
 */
export interface PublicAnswer {
  body: unknown;
  headers?: Record<string, string>;
  cache?: { maxAge: number; swr?: number; kind: string; park?: string };
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * The routes of an anonymous JSON resource: GET (route-cached when the answer says so, ETag,
 * CORS `*`), HEAD, the CORS preflight, and 405 for every other method; errors are never cached.
 * `load` gets Netlify's `waitUntil` as `later`. `otherMethods` (a POST a function answers on the
 * same path) are listed in `Allow`, but not offered to browsers by CORS.
 */
export function publicJsonRoutes(
  load: (context: APIContext, later: AfterAnswer | undefined) => Promise<PublicAnswer>,
  otherMethods: readonly string[] = [],
): { GET: APIRoute; HEAD: APIRoute; OPTIONS: APIRoute; ALL: APIRoute } {
  const allow = [...READ_METHODS, ...otherMethods];
  // The CDN keys on the whole query string unless told: `park` is the only parameter a public GET
  // reads, and Netlify cannot say "none", so every route sends this, errors too (one per URL).
  // https://docs.netlify.com/build/caching/caching-overview/ ("Netlify-Vary")
  const headers = { ...PUBLIC_CORS_HEADERS, 'Netlify-Vary': 'query=park' };
  const GET: APIRoute = async (context) => {
    try {
      // Netlify's `waitUntil` when the route runs in its function (the adapter puts the function's
      // context in `locals.netlify`); our own runtime has none, so work handed on is awaited there.
      const netlify = (context.locals as Partial<NetlifyLocals> | undefined)?.netlify?.context;
      const answer = await load(context, netlify && ((task) => netlify.waitUntil(task)));
      if (answer.cache) {
        const { maxAge, swr, kind, park } = answer.cache;
        const tags = park ? [kind, `${kind}:${park}`, `park:${park}`] : [kind];
        context.cache.set({ maxAge, ...(swr === undefined ? {} : { swr }), tags });
      }
      // Browsers revalidate on every use (cheap with the ETag) while the CDN keeps the copy.
      const browser = { 'Cache-Control': 'public, max-age=0, must-revalidate' };
      return respond({ json: answer.body, etag: true, headers: { ...headers, ...browser, ...answer.headers } });
    } catch (error) {
      return errorResponse(error, headers);
    }
  };
  return {
    GET,
    // Astro would send HEAD to `ALL` (a 405); HEAD is GET without the body, which Node drops.
    HEAD: GET,
    OPTIONS: () =>
      respond({
        status: 204,
        empty: true,
        headers: {
          ...PUBLIC_CORS_HEADERS,
          'Access-Control-Allow-Methods': READ_METHODS.join(', '),
          'Access-Control-Allow-Headers': 'If-None-Match',
          'Access-Control-Max-Age': '86400',
          Allow: allow.join(', '),
        },
      }),
    ALL: () => errorResponse(new MethodNotAllowedError(allow), PUBLIC_CORS_HEADERS),
  };
}
