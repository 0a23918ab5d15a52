import type { NetlifyLocals } from '@astrojs/netlify';
import type { APIContext, APIRoute } from 'astro';
import { MethodNotAllowedError } from './errors.ts';
import {
  type AfterAnswer,
  errorResponse,
  jsonResponse,
  PUBLIC_CORS_HEADERS,
  publicPreflight,
  REVALIDATE_IN_BROWSER,
} from './http.ts';

/** What a public GET answers: the body, and how long the route cache (or the CDN) may keep it. */
export interface PublicAnswer {
  body: unknown;
  cache: { maxAge: number; swr: number; tags: string[] };
}

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * The routes of an anonymous, cacheable JSON resource: GET (route-cached, ETag, CORS `*`),
 * HEAD, the CORS preflight, and 405 for every other method. Errors become their JSON answer in
 * one place and are never cached. `load` gets the platform's `waitUntil` as `later` on Netlify.
 */
export function publicJsonRoutes(
  load: (context: APIContext, later: AfterAnswer | undefined) => Promise<PublicAnswer>,
): {
  GET: APIRoute;
  HEAD: APIRoute;
  OPTIONS: APIRoute;
  ALL: APIRoute;
} {
  const GET: APIRoute = async (context) => {
    try {
      const answer = await load(context, afterAnswerOf(context.locals));
      context.cache.set(answer.cache);
      return jsonResponse(answer.body, {
        etag: true,
        headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': REVALIDATE_IN_BROWSER },
      });
    } catch (error) {
      return errorResponse(error, PUBLIC_CORS_HEADERS);
    }
  };
  return {
    GET,
    // Astro would send HEAD to `ALL` (a 405); HEAD is GET without the body, which Node drops.
    HEAD: GET,
    OPTIONS: () => publicPreflight(ALLOW),
    ALL: () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS),
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
