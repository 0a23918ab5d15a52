import { purgeCache } from '@netlify/functions';
import type { AfterAnswer } from '../http.ts';

/** What a function needs of Astro's route cache: its provider's `invalidate` (`context.cache` has it). */
export interface RouteCache {
  invalidate(options: { tags: string[] }): Promise<void> | void;
}

/**
 * Locally (`npm start`) the route cache is Astro's in-memory one, in the same process as the
 * functions but inside the Astro build. The local runtime hands Astro its `locals.routeCache`
 * (this function, from the source module the functions share) and src/middleware.ts passes it
 * Astro's own `context.cache`. Before Astro ran once nothing is cached, so nothing needs invalidating.
 */
let localCache: RouteCache | undefined;
export function useLocalRouteCache(cache: RouteCache | undefined): void {
  localCache = cache;
}

/**
 * Drops cached answers with these tags: the local cache before this returns; on Netlify the CDN's
 * copies through `purgeCache` (https://docs.netlify.com/platform/caching/#on-demand-invalidation,
 * its token is the platform's; limited to 2 per 5 s per tag), handed to `waitUntil`. Failures are
 * logged: at worst the old answer lives out its max-age.
 */
export async function invalidateRouteCache(tags: string[], waitUntil: AfterAnswer): Promise<void> {
  try {
    await localCache?.invalidate({ tags });
  } catch (error) {
    console.warn('Route cache invalidation failed:', error);
  }
  if (process.env.NETLIFY_PURGE_API_TOKEN) {
    waitUntil(purgeCache({ tags }).catch((error) => console.warn('CDN purge failed:', error)));
  }
}
