// @ts-check
import netlify from '@astrojs/netlify';
import { cacheNetlify } from '@astrojs/netlify/cache';
import node from '@astrojs/node';
import { defineConfig, memoryCache } from 'astro/config';

// Netlify's build sets NETLIFY=true: there the same `context.cache.set()` calls become
// Netlify-CDN-Cache-Control headers (https://docs.astro.build/en/guides/caching/).
// Everywhere else the Node adapter serves the site with Astro's in-memory route cache.
const onNetlify = process.env.NETLIFY === 'true';

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  adapter: onNetlify ? netlify() : node({ mode: 'standalone' }),
  cache: { provider: onNetlify ? cacheNetlify() : memoryCache({ max: 500 }) },
  // Sessions are not used; without this the adapters would set up a storage driver.
  session: undefined,
  trailingSlash: 'ignore',
  // Astro serves no POST of ours (those are Netlify functions); unsupported methods get our 405.
  security: { checkOrigin: false },
  telemetry: false,
  devToolbar: { enabled: false },
});
