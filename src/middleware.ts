import { defineMiddleware } from 'astro:middleware';
import type { RouteCache } from './platform/cache/route-cache.ts';
import { BASE_HEADERS } from './platform/http.ts';

/**
 * On-demand responses that our JSON helpers did not build (Astro's 404 page for an unknown path,
 * for one) still get the headers every response carries. Prerendered files get theirs from
 * netlify.toml instead.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  // The local runtime passes `locals.routeCache` (the Node adapter's handler takes locals:
  // https://docs.astro.build/en/guides/integrations-guide/node/#middleware) so that its functions
  // can invalidate this cache (src/platform/cache/route-cache.ts). Netlify passes none.
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
