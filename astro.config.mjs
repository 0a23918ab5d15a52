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
  security: {
    checkOrigin: false,
    // HTML pages carry a CSP (CONTRACT). Astro adds the hashes of each page's own scripts and styles
    // and writes the policy into the page as <meta http-equiv>, so it cannot get lost on the way.
    // Not the adapters' `staticHeaders`: @astrojs/node 11.1.6 finds a page's headers by substring
    // (`/parks/` gets another page's policy, `/parks/epcot/` none; withastro/astro#16673).
    // `frame-ancestors` only works as a header, so it is not here.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
    },
  },
  telemetry: false,
  devToolbar: { enabled: false },
});
