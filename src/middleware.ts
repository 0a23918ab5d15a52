import { defineMiddleware } from 'astro:middleware';
import { BASE_HEADERS } from './platform/http.ts';

/**
 * On-demand responses that our JSON helpers did not build (Astro's 404 page for an unknown path,
 * for one) still get the headers every response carries. Prerendered files get theirs from
 * netlify.toml instead.
 */
export const onRequest = defineMiddleware(async (_context, next) => {
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
