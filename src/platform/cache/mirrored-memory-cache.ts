import type { CacheProvider, CacheProviderFactory } from 'astro';
import memoryCacheProvider from 'astro/cache/memory';
import { answerConditional } from './conditional-request.ts';
import { type MirroredEntry, mirrorKey, publishRouteCacheMirror } from './route-cache-mirror.ts';

/**
 * Astro's own in-memory route cache (`astro/cache/memory`), plus a read-only mirror of its fresh
 * entries that the local runtime (server/runtime.mts) answers from without entering Astro's
 * render pipeline. The mirror never decides anything: it holds byte-exact copies of responses
 * Astro's provider chose to cache, serves them only while fresh by the same `max-age` rule, and
 * forgets them when Astro invalidates. Stale and missing entries go through Astro as before, so
 * stale-while-revalidate stays Astro's. https://docs.astro.build/en/reference/cache-provider-reference/
 *
 * Astro runs the provider around the middleware and the route, so a cached copy already carries
 * what src/middleware.ts adds. The provider also answers conditional GETs with 304, as the CDN
 * does on Netlify, for cached and uncached on-demand answers alike.
 */

// Headers Astro's memory provider does not keep (set-cookie) or its handler removes before a
// response leaves (cdn-cache-control, cache-tag: core/cache/handler.js).
const INTERNAL_HEADERS = new Set(['cdn-cache-control', 'cache-tag', 'set-cookie']);

function maxAgeOf(cdnCacheControl: string | null): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(cdnCacheControl ?? '');
  return match ? Number(match[1]) : 0;
}

const provider: CacheProviderFactory<{ max?: number }> = (config) => {
  const inner = (memoryCacheProvider as CacheProviderFactory)(config) as CacheProvider;
  const max = config?.max ?? 1000;
  const entries = new Map<string, MirroredEntry>();
  publishRouteCacheMirror({ get: (key) => entries.get(key) });

  const remember = async (request: Request, response: Response) => {
    const maxAge = maxAgeOf(response.headers.get('CDN-Cache-Control'));
    // The same conditions under which Astro's provider stores a response; a Vary is left to Astro.
    if (request.method !== 'GET' || maxAge <= 0 || response.headers.has('set-cookie') || response.headers.has('vary')) {
      return;
    }
    const url = new URL(request.url);
    const copy = response.clone();
    const headers = new Headers();
    copy.headers.forEach((value, name) => {
      if (!INTERNAL_HEADERS.has(name)) headers.append(name, value);
    });
    headers.set('x-astro-cache', 'HIT'); // what the memory provider sets on a hit
    const body = new Uint8Array(await copy.arrayBuffer());
    const key = mirrorKey(url);
    entries.delete(key);
    if (entries.size >= max) entries.delete(entries.keys().next().value as string);
    entries.set(key, {
      status: response.status,
      headers,
      body,
      storedAt: Date.now(),
      maxAgeMs: maxAge * 1000,
      tags: (response.headers.get('Cache-Tag') ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      pathname: url.pathname,
    });
  };

  return {
    name: 'memory',
    async onRequest(context, next) {
      const { request } = context;
      const response = inner.onRequest
        ? await inner.onRequest(context, async () => {
            const fresh = await next();
            await remember(request, fresh);
            return fresh;
          })
        : await next();
      // Only a response with a validator can be answered 304, so only then are the request's
      // headers read: a page prerendered at build time has none, and Astro warns when they are.
      const validated = response.headers.has('etag') || response.headers.has('last-modified');
      return validated ? answerConditional(request.method, Object.fromEntries(request.headers), response) : response;
    },
    async invalidate(options) {
      const tags = new Set([options.tags ?? []].flat());
      for (const [key, entry] of entries) {
        if (entry.pathname === options.path || entry.tags.some((tag) => tags.has(tag))) entries.delete(key);
      }
      await inner.invalidate(options);
    },
  };
};

export default provider;
