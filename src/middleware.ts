import { defineMiddleware } from 'astro:middleware';
import type { RouteCache } from './platform/cache/route-cache.ts';
import { BASE_HEADERS } from './platform/http.ts';

/** On-demand responses our JSON helpers did not build (e.g. the 404 page) get the headers of every response too. */
export const onRequest = defineMiddleware(async (context, next) => {
  // The local runtime passes `locals.routeCache` so its functions can invalidate this cache
  // (src/platform/cache/route-cache.ts, https://docs.astro.build/en/guides/integrations-guide/node/#middleware).
  const locals = context.locals as { routeCache?: (cache: RouteCache) => void };
  if (context.cache.enabled) locals.routeCache?.(context.cache);
  const response = await next();
  const missing = Object.entries(BASE_HEADERS).filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  try {
    for (const [name, value] of missing) response.headers.set(name, value);
    return response;
  } catch {
    // Headers of some responses (e.g. a fetch result) are immutable: answer a copy.
    const copy = new Response(response.body, response);
    for (const [name, value] of missing) copy.headers.set(name, value);
    return copy;
  }
});
