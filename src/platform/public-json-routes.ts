import type { NetlifyLocals } from '@astrojs/netlify';
import type { APIContext, APIRoute } from 'astro';
import { methodNotAllowed } from './errors.ts';
import { type AfterAnswer, errorResponse, respond } from './http.ts';

/** Public, anonymous GET responses may be read by any origin. */
const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Retry-After, Link',
};

/**
 * A public GET's body, own headers and how long the route cache may keep it; tagged `<kind>` and, for
 * one park, `<kind>:<park>` and `park:<park>`, so a purge can be as narrow as one park's answer of one kind.
 */
export interface PublicAnswer {
  /** The JSON body; a string in `csv` answers `text/csv` instead, and `text` its own type (a feed). */
  body: unknown;
  csv?: string;
  text?: { body: string; contentType: string };
  headers?: Record<string, string>;
  cache?: { maxAge: number; swr?: number; kind: string; park?: string };
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * An anonymous JSON resource: GET (route-cached as the answer says, ETag, CORS `*`), HEAD, the
 * preflight, and 405 otherwise; errors are never cached. `otherMethods` (a POST a function answers)
 * are listed in `Allow` but not offered by CORS. `query`: the parameters the answer depends on.
 */
export function publicJsonRoutes(
  load: (context: APIContext, later: AfterAnswer | undefined) => Promise<PublicAnswer>,
  otherMethods: readonly string[] = [],
  query: readonly string[] = ['park'],
): { GET: APIRoute; HEAD: APIRoute; OPTIONS: APIRoute; ALL: APIRoute } {
  const allow = [...READ_METHODS, ...otherMethods];
  // The CDN keys on the whole query string unless told (https://docs.netlify.com/build/caching/caching-overview/):
  // only the parameters a GET reads (`park` for most), as Netlify cannot say "none"; errors too.
  const headers = { ...PUBLIC_CORS_HEADERS, 'Netlify-Vary': `query=${query.join('|')}` };
  const GET: APIRoute = async (context) => {
    try {
      // Netlify's `waitUntil` (the adapter's `locals.netlify`); the local runtime awaits the work instead.
      const netlify = (context.locals as Partial<NetlifyLocals> | undefined)?.netlify?.context;
      const answer = await load(context, netlify && ((task) => netlify.waitUntil(task)));
      if (answer.cache) {
        const { maxAge, swr, kind, park } = answer.cache;
        context.cache.set({ maxAge, swr, tags: park ? [kind, `${kind}:${park}`, `park:${park}`] : [kind] });
      }
      // Browsers revalidate on every use (cheap with the ETag) while the CDN keeps the copy.
      const browser = { 'Cache-Control': 'public, max-age=0, must-revalidate' };
      const own = { ...headers, ...browser, ...answer.headers };
      if (answer.csv !== undefined) return respond({ csv: answer.csv, etag: true, headers: own });
      if (answer.text !== undefined) {
        const { body, contentType } = answer.text;
        return respond({ text: body, contentType, etag: true, headers: own });
      }
      return respond({ json: answer.body, etag: true, headers: own });
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
    ALL: () => errorResponse(methodNotAllowed(allow), PUBLIC_CORS_HEADERS),
  };
}
