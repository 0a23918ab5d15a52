import { purgeCache } from '@netlify/functions';
import type { AfterAnswer } from '../http.ts';

/** What a function needs of Astro's route cache: its provider's `invalidate` (`context.cache` has it). */
export interface RouteCache {
  invalidate(options: { tags: string[] }): Promise<void> | void;
}

// Locally (`npm start`) Astro's memory cache, handed over by src/middleware.ts; nothing is
// cached before Astro ran once.
let localCache: RouteCache | undefined;
export function useLocalRouteCache(cache: RouteCache | undefined): void {
  localCache = cache;
}

/**
 * Drops cached answers with these tags: the local cache at once; on Netlify the CDN's copies by
 * `purgeCache` (https://docs.netlify.com/platform/caching/#on-demand-invalidation), after the
 * answer. Failures are logged: at worst the old answer lives out its max-age.
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
