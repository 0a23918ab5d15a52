import { LOCATION_CACHE_TAG, readPublicLocation } from '../../location/location.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

export const prerender = false;

/** A POST that changes the pin purges the cache at once; this bounds how late the switch to stale by age shows. */
const MAX_AGE_SECONDS = 60;

// POST is the owner's Netlify function (netlify/functions/location.mts), on the same path.
export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => {
  const { location, degraded } = await readPublicLocation();
  // A stale marker caused by a Blobs failure is not cached: the next request tries again.
  return degraded
    ? { body: location }
    : { body: location, cache: { maxAge: MAX_AGE_SECONDS, kind: LOCATION_CACHE_TAG } };
}, ['POST']);
