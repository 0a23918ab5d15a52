import { purgeCache } from '@netlify/functions';
import type { AfterAnswer } from '../http.ts';

/** What a function needs of Astro's route cache: its provider's `invalidate` (`context.cache` has it). */
export type RouteCache = { invalidate(options: { tags: string[] }): Promise<void> | void };

// Locally, Astro's memory cache, handed over by src/middleware.ts (nothing is cached before Astro runs).
let localCache: RouteCache | undefined;
export function useLocalRouteCache(cache: RouteCache | undefined): void {
  localCache = cache;
}

/**
 * Drops cached answers with these tags: locally at once, on Netlify by `purgeCache` after the answer
 * (https://docs.netlify.com/platform/caching/#on-demand-invalidation). Failures are only logged.
 */
export async function invalidateRouteCache(tags: string[], waitUntil: AfterAnswer): Promise<void> {
  const invalidated = Promise.try(() => localCache?.invalidate({ tags }));
  await invalidated.catch((error) => console.warn('Route cache invalidation failed:', error));
  if (process.env.NETLIFY_PURGE_API_TOKEN) {
    waitUntil(purgeCache({ tags }).catch((error) => console.warn('CDN purge failed:', error)));
  }
}
