import type { APIRoute } from 'astro';
import { MethodNotAllowedError } from '../../lib/errors.ts';
import {
  errorResponse,
  jsonResponse,
  PUBLIC_CORS_HEADERS,
  publicPreflight,
  REVALIDATE_IN_BROWSER,
} from '../../lib/http.ts';
import { getNetworkStatus } from '../../lib/job-status.ts';

export const prerender = false;

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;
/** The job runs hourly; a minute of caching keeps a busy monitor off Blobs without hiding a run for long. */
const CACHE_SECONDS = 60;

export const GET: APIRoute = async ({ cache }) => {
  try {
    const body = await getNetworkStatus();
    cache.set({ maxAge: CACHE_SECONDS, swr: CACHE_SECONDS, tags: ['job-status'] });
    return jsonResponse(body, {
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
