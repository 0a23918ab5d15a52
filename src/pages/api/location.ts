import type { APIRoute } from 'astro';
import { LOCATION_CACHE_TAG, readPublicLocation } from '../../location/location.ts';
import { MethodNotAllowedError } from '../../platform/errors.ts';
import {
  errorResponse,
  jsonResponse,
  NO_STORE,
  PUBLIC_CORS_HEADERS,
  publicPreflight,
  REVALIDATE_IN_BROWSER,
} from '../../platform/http.ts';

export const prerender = false;

/** POST is the owner's Netlify function (netlify/functions/location.mts), on the same path. */
const ALLOW = ['GET', 'HEAD', 'OPTIONS', 'POST'] as const;
/** Browsers may read the pin from any origin, but only GET and HEAD: POST is not for pages. */
const CORS_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
/**
 * The route cache (Netlify CDN in production) keeps an answer this long. A POST that changes the
 * pin invalidates it at once; the max-age bounds how late the switch from live to stale (by age)
 * shows, and how long an answer survives a purge that failed.
 */
const MAX_AGE_SECONDS = 60;

export const GET: APIRoute = async ({ cache }) => {
  try {
    const { location, degraded } = await readPublicLocation();
    // A stale marker caused by a Blobs failure is not cached: the next request tries again.
    if (!degraded) cache.set({ maxAge: MAX_AGE_SECONDS, tags: [LOCATION_CACHE_TAG] });
    return jsonResponse(location, {
      etag: true,
      headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': REVALIDATE_IN_BROWSER },
    });
  } catch (error) {
    // Not reachable in practice (the read above never throws), but a GET of the pin must never be a 500.
    console.error('GET /api/location failed:', error);
    return jsonResponse(
      { status: 'stale', updatedAt: null },
      { headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': NO_STORE } },
    );
  }
};

// Astro would send HEAD to `ALL` (405) when it is exported, so HEAD is answered by GET explicitly.
export const HEAD: APIRoute = (context) => GET(context);

export const OPTIONS: APIRoute = () => {
  const response = publicPreflight(CORS_METHODS);
  response.headers.set('Allow', ALLOW.join(', '));
  return response;
};

export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS);
