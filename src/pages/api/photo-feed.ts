import type { APIRoute } from 'astro';
import { MethodNotAllowedError } from '../../lib/errors.ts';
import {
  errorResponse,
  jsonResponse,
  PUBLIC_CORS_HEADERS,
  publicPreflight,
  REVALIDATE_IN_BROWSER,
} from '../../lib/http.ts';
import { getPhotoFeed } from '../../lib/photo-feed.ts';

export const prerender = false;

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;
/** Once fresh data has aged out, it is still answered at once this long while a refresh runs. */
const STALE_WHILE_REVALIDATE_SECONDS = 600;

export const GET: APIRoute = async ({ cache }) => {
  try {
    const result = await getPhotoFeed();
    cache.set({ maxAge: result.maxAgeSeconds, swr: STALE_WHILE_REVALIDATE_SECONDS, tags: ['photo-feed'] });
    return jsonResponse(result.body, {
      etag: true,
      headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': REVALIDATE_IN_BROWSER },
    });
  } catch (error) {
    return errorResponse(error, PUBLIC_CORS_HEADERS);
  }
};

// Astro answers HEAD with `ALL` when both exist, so HEAD is routed to GET explicitly.
export const HEAD: APIRoute = GET;

export const OPTIONS: APIRoute = () => publicPreflight(ALLOW);

export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS);
