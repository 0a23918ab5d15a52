import { purgeCache } from '@netlify/functions';
import type { AfterAnswer } from '../http.ts';

/**
 * Invalidating cached GET answers from a Netlify function, where Astro's `cache.invalidate()` is
 * not available.
 *
 * - On Netlify the answers sit in the CDN, tagged by `context.cache.set({ tags })`; a function
 *   purges them with `purgeCache({ tags })` (https://docs.netlify.com/platform/caching/#on-demand-invalidation).
 *   The platform provides the purge token to functions; without it there is nothing to purge.
 * - Locally (`npm start`) the route cache is Astro's in-memory cache, inside the same process as
 *   the functions but in the Astro bundle's own module instance. An endpoint that sets a tag hands
 *   over its `cache.invalidate` on a process-wide symbol, and functions call it. If no endpoint ran
 *   yet, nothing is cached, so there is nothing to invalidate either.
 */

type Invalidate = (tags: string[]) => Promise<void>;
const SHARED_INVALIDATE = Symbol.for('site-api.route-cache.invalidate');
const shared = globalThis as { [SHARED_INVALIDATE]?: Invalidate };

/** Called by a cached endpoint: lets functions in the same process invalidate its cache entries. */
export function shareRouteCacheInvalidation(cache: {
  invalidate(options: { tags: string[] }): Promise<void> | void;
}): void {
  shared[SHARED_INVALIDATE] ??= async (tags) => {
    await cache.invalidate({ tags });
  };
}

/**
 * Drops cached answers with these tags. The in-process cache is cleared before this returns; the
 * CDN purge (an API call, limited to 2 per 5 s per tag) is handed to `waitUntil` so the caller
 * need not wait for it. Failures are logged: at worst the old answer lives out its max-age.
 */
export async function invalidateRouteCache(tags: string[], waitUntil: AfterAnswer): Promise<void> {
  const local = shared[SHARED_INVALIDATE];
  if (local) await local(tags).catch((error) => console.warn('Route cache invalidation failed:', error));
  if (process.env.NETLIFY_PURGE_API_TOKEN) {
    waitUntil(purgeCache({ tags }).catch((error) => console.warn('CDN purge failed:', error)));
  }
}
