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
 * Browsers revalidate on every use (cheap with the ETag) while the CDN or the route cache keeps
 * the response; see https://docs.netlify.com/platform/caching/ ("Cache-Control" vs CDN headers).
 */
const REVALIDATE_IN_BROWSER = 'public, max-age=0, must-revalidate';

/**
 * Netlify's CDN keys a function's answer on the whole query string unless told otherwise, so
 * `?park=epcot&utm_source=x` would be a second entry and a second run. `park` is the only query
 * parameter a public GET reads; every other one is left out of the key. Netlify has no way to say
 * "no parameter" (a bare `query` means all of them; @netlify/cache takes a non-empty list or all),
 * so routes that read none send the same list.
 * https://docs.netlify.com/build/caching/caching-overview/ ("Netlify-Vary")
 */
const NETLIFY_VARY = 'query=park';

/**
 * How long the route cache (Netlify's CDN in production) may keep an answer, and what it is:
 * its cache tags are `<kind>`, and for one park's answer also `<kind>:<park>` and `park:<park>`,
 * so that a purge can be as narrow as one park's answer of one kind. Astro adds a tag per path.
 */
export interface RouteCache {
  maxAge: number;
  swr?: number;
  kind: string;
  park?: string;
}

/** What a public GET answers: the body, its own headers, and, when it may be kept, for how long. */
export interface PublicAnswer {
  body: unknown;
  headers?: Record<string, string>;
  cache?: RouteCache;
}

/** The cache tags of an answer (see `RouteCache`). */
function cacheTags({ kind, park }: Pick<RouteCache, 'kind' | 'park'>): string[] {
  return park ? [kind, `${kind}:${park}`, `park:${park}`] : [kind];
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * The routes of an anonymous JSON resource: GET (route-cached when the answer says so, ETag,
 * CORS `*`), HEAD, the CORS preflight, and 405 for every other method. Errors become their JSON
 * answer in one place and are never cached. `load` gets the platform's `waitUntil` as `later` on
 * Netlify. `otherMethods` are answered on the same path by a function (a POST): they are listed
 * in `Allow`, but not offered to browsers by CORS.
 */
export function publicJsonRoutes(
  load: (context: APIContext, later: AfterAnswer | undefined) => Promise<PublicAnswer>,
  otherMethods: readonly string[] = [],
): { GET: APIRoute; HEAD: APIRoute; OPTIONS: APIRoute; ALL: APIRoute } {
  const allow = [...READ_METHODS, ...otherMethods];
  // Errors too: Netlify expects one `Netlify-Vary` on every response of a URL.
  const headers = { ...PUBLIC_CORS_HEADERS, 'Netlify-Vary': NETLIFY_VARY };
  const GET: APIRoute = async (context) => {
    try {
      const answer = await load(context, afterAnswerOf(context.locals));
      if (answer.cache) {
        const { maxAge, swr } = answer.cache;
        context.cache.set({ maxAge, ...(swr === undefined ? {} : { swr }), tags: cacheTags(answer.cache) });
      }
      return respond({
        json: answer.body,
        etag: true,
        headers: { ...headers, 'Cache-Control': REVALIDATE_IN_BROWSER, ...answer.headers },
      });
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

/**
 * Netlify's `waitUntil` when the route runs in its function: the adapter puts the function's
 * context in `locals.netlify` (@astrojs/netlify ssr-function.js;
 * https://docs.astro.build/en/guides/integrations-guide/netlify/).
 * Our own runtime has none, so work handed on is awaited before the answer there.
 */
function afterAnswerOf(locals: APIContext['locals']): AfterAnswer | undefined {
  const context = (locals as Partial<NetlifyLocals> | undefined)?.netlify?.context;
  return context ? (task) => context.waitUntil(task) : undefined;
}
