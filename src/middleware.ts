import { defineMiddleware } from 'astro:middleware';
import type { RouteCache } from './platform/cache/route-cache.ts';
import { withBaseHeaders } from './platform/http.ts';

/** On-demand responses our JSON helpers did not build (e.g. the 404 page) get the headers of every response too. */
export const onRequest = defineMiddleware(async (context, next) => {
  // The local runtime passes `locals.routeCache` so its functions can invalidate this cache
  // (src/platform/cache/route-cache.ts, https://docs.astro.build/en/guides/integrations-guide/node/#middleware).
  const locals = context.locals as { routeCache?: (cache: RouteCache) => void };
  if (context.cache.enabled) locals.routeCache?.(context.cache);
  return withBaseHeaders(await next());
});
