// @ts-check
import netlify from '@astrojs/netlify';
import { cacheNetlify } from '@astrojs/netlify/cache';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

// Netlify's build sets NETLIFY=true: there the same `context.cache.set()` calls become
// Netlify-CDN-Cache-Control headers (https://docs.astro.build/en/guides/caching/).
// Everywhere else the Node adapter serves the site with Astro's in-memory route cache.
const onNetlify = process.env.NETLIFY === 'true';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  adapter: onNetlify ? netlify() : node({ mode: 'standalone' }),
  cache: {
    provider: onNetlify
      ? cacheNetlify()
      : // Astro's memory cache with a mirror of fresh entries for the local runtime's fast path.
        { name: 'memory', entrypoint: new URL('./src/cache/mirrored-memory-cache.ts', import.meta.url), config: { max: 500 } },
  },
  // Sessions are not used; without this the adapters would set up a storage driver.
  session: undefined,
  trailingSlash: 'ignore',
  // Astro serves no POST of ours (those are Netlify functions); unsupported methods get our 405.
  security: { checkOrigin: false },
  telemetry: false,
  devToolbar: { enabled: false },
});
