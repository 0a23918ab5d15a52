import type { CacheProviderFactory } from 'astro';
import memoryProvider, { type MemoryCacheProviderOptions } from 'astro/cache/memory';
import { answerConditional } from './conditional-request.ts';

/**
 * The local route cache: Astro's in-memory provider, answering a conditional GET with 304 as
 * Netlify's CDN does in production (Astro's memory provider sends the full answer every time).
 * Wired by astro.config.mjs (https://docs.astro.build/en/guides/caching/).
 */
const localRouteCache: CacheProviderFactory<MemoryCacheProviderOptions> = (config) => {
  const memory = memoryProvider(config);
  return {
    ...memory,
    async onRequest(context, next) {
      const response = await (memory.onRequest?.(context, next) ?? next());
      const { method, headers } = context.request;
      return answerConditional(method, Object.fromEntries(headers), response);
    },
  };
};

export default localRouteCache;
