import type { APIRoute } from 'astro';
import { MethodNotAllowedError } from '../../lib/errors.ts';
import {
  errorResponse,
  jsonResponse,
  PUBLIC_CORS_HEADERS,
  publicPreflight,
  REVALIDATE_IN_BROWSER,
} from '../../lib/http.ts';
import { getWaitTimes, parkFromQuery } from '../../lib/wait-times.ts';

export const prerender = false;

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;
/** Once fresh data has aged out, it is still answered at once this long while a refresh runs. */
const STALE_WHILE_REVALIDATE_SECONDS = 600;

export const GET: APIRoute = async ({ url, cache }) => {
  try {
    const park = parkFromQuery(url.searchParams.get('park'));
    const result = await getWaitTimes(park);
    cache.set({ maxAge: result.maxAgeSeconds, swr: STALE_WHILE_REVALIDATE_SECONDS, tags: ['wait-times'] });
    return jsonResponse(result.body, {
      etag: true,
      headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': REVALIDATE_IN_BROWSER },
    });
  } catch (error) {
    return errorResponse(error, PUBLIC_CORS_HEADERS);
  }
};

// Astro sends `ALL` a HEAD before falling back to GET, so HEAD is named: GET's headers, no body.
export const HEAD: APIRoute = (context) => GET(context);

export const OPTIONS: APIRoute = () => publicPreflight(ALLOW);

export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS);
