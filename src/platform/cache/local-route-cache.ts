import type { CacheProviderFactory } from 'astro';
import memoryProvider, { type MemoryCacheProviderOptions } from 'astro/cache/memory';
import fresh from 'fresh';

/**
 * The local route cache (wired by astro.config.mjs): Astro's in-memory provider, answering a
 * conditional GET with 304 as Netlify's CDN does (the memory provider sends the full answer).
 */
const localRouteCache: CacheProviderFactory<MemoryCacheProviderOptions> = (config) => {
  const memory = memoryProvider(config);
  return {
    ...memory,
    async onRequest(context, next) {
      const response = await (memory.onRequest?.(context, next) ?? next());
      // Only an answer with a validator can become a 304, so only then are the request's headers
      // read: a page prerendered at build time has none, and Astro warns once per page when they are.
      if (!response.headers.has('etag') && !response.headers.has('last-modified')) return response;
      const { method, headers } = context.request;
      return answerConditional(method, Object.fromEntries(headers), response);
    },
  };
};

export default localRouteCache;

/**
 * The response, or its 304 (same headers, no body: RFC 9110 §15.4.5) when a GET or HEAD's 200
 * matches `If-None-Match` or `If-Modified-Since`, by `fresh` as Express and `send` match. Its "never
 * 304 with `Cache-Control: no-cache`" is left out: fetch adds that to every `If-None-Match` request.
 * `requestHeaders` have lower-case names, as Node or `Object.fromEntries(headers)` gives them.
 */
export function answerConditional(method: string, requestHeaders: fresh.Headers, response: Response): Response {
  if ((method !== 'GET' && method !== 'HEAD') || response.status !== 200) return response;
  const conditions = { ...requestHeaders, 'cache-control': undefined };
  if (!fresh(conditions, Object.fromEntries(response.headers))) return response;
  void response.body?.cancel();
  return new Response(null, { status: 304, headers: response.headers });
}
