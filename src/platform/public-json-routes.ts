import type { APIContext, APIRoute } from 'astro';
import { MethodNotAllowedError } from './errors.ts';
import { errorResponse, jsonResponse, PUBLIC_CORS_HEADERS, publicPreflight, REVALIDATE_IN_BROWSER } from './http.ts';

/** What a public GET answers: the body, and how long the route cache (or the CDN) may keep it. */
export interface PublicAnswer {
  body: unknown;
  cache: { maxAge: number; swr: number; tags: string[] };
}

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;

/**
 * The routes of an anonymous, cacheable JSON resource: GET (route-cached, ETag, CORS `*`),
 * HEAD, the CORS preflight, and 405 for every other method. Errors become their JSON answer in
 * one place and are never cached.
 */
export function publicJsonRoutes(load: (context: APIContext) => Promise<PublicAnswer>): {
  GET: APIRoute;
  HEAD: APIRoute;
  OPTIONS: APIRoute;
  ALL: APIRoute;
} {
  const GET: APIRoute = async (context) => {
    try {
      const answer = await load(context);
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
