import { LOCATION_CACHE_TAG, readPublicLocation } from '../../location/location.ts';
import { NO_STORE } from '../../platform/http.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

export const prerender = false;

/**
 * The route cache (Netlify CDN in production) keeps an answer this long. A POST that changes the
 * pin purges it at once; the max-age bounds how late the switch from live to stale (by age)
 * shows, and how long an answer survives a purge that failed.
 */
const MAX_AGE_SECONDS = 60;

// POST is the owner's Netlify function (netlify/functions/location.mts), on the same path.
export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => {
  try {
    const { location, degraded } = await readPublicLocation();
    // A stale marker caused by a Blobs failure is not cached: the next request tries again.
    return degraded
      ? { body: location }
      : { body: location, cache: { maxAge: MAX_AGE_SECONDS, kind: LOCATION_CACHE_TAG } };
  } catch (error) {
    // Not reachable in practice (the read above never throws), but a GET of the pin must never be a 500.
    console.error('GET /api/location failed:', error);
    return { body: { status: 'stale', updatedAt: null }, headers: { 'Cache-Control': NO_STORE } };
  }
}, ['POST']);
