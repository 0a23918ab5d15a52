// @ts-check
import netlify from '@astrojs/netlify';
import { cacheNetlify } from '@astrojs/netlify/cache';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import { recordBuildSite } from './scripts/build-record.mts';
import { widgetBuild } from './scripts/build-widget.mts';
import { bundleNetlifyFunctions } from './scripts/bundle-functions.mts';
import { onNetlify, resolveSiteUrl } from './src/platform/site-url.ts';

// Netlify's build sets NETLIFY=true and its CLI (`netlify build`, `netlify serve`) NETLIFY_LOCAL=true:
// there the same `context.cache.set()` calls become Netlify-CDN-Cache-Control headers
// (https://docs.astro.build/en/guides/caching/). Everywhere else the Node adapter serves the site
// with Astro's in-memory route cache.
const netlifyBuild = onNetlify(process.env);
// The same resolver as the running code (src/platform/config.ts): SITE_URL, else Netlify's address.
const site = resolveSiteUrl(process.env).value;

export default defineConfig({
  site,
  // `staticHeaders`: the Content-Security-Policy of prerendered pages becomes a response header
  // (Netlify: .netlify/v1/config.json; Node: dist/_headers.json, applied by the local runtime)
  // instead of a <meta> tag, so `frame-ancestors` works too. Node's `middleware` mode: the local
  // runtime (server/) serves the static files and hands Astro the rest, with `locals`.
  adapter: netlifyBuild ? netlify({ staticHeaders: true }) : node({ mode: 'middleware', staticHeaders: true }),
  cache: {
    // Locally Astro's in-memory cache, keyed by the query parameters cached routes read (`park`,
    // `date` and `format` of /api/wait-times/days, and the feeds' filters `ride`, `type` and `below`):
    // `?park=epcot&utm_source=x` is the entry of `?park=epcot`, as with Netlify-Vary (each route's
    // own list, public-json-routes.ts).
    provider: netlifyBuild
      ? cacheNetlify()
      : {
          name: 'memory',
          entrypoint: new URL('./src/platform/cache/local-route-cache.ts', import.meta.url),
          config: { max: 500, query: { include: ['park', 'date', 'format', 'ride', 'type', 'below'] } },
        },
  },
  // Sessions are not used: `false` keeps the adapters from wiring a storage driver and the session
  // runtime out of the bundle (https://docs.astro.build/en/reference/configuration-reference/#session).
  session: false,
  // Netlify: the functions in netlify/functions are bundled with their dependencies (cold start,
  // scripts/bundle-functions.mts). Locally: the runtime refuses to serve a build made for another
  // SITE_URL (scripts/build-record.mts). Both: the widget is built from src/widget/ into public/.
  integrations: [widgetBuild(), ...(netlifyBuild ? [bundleNetlifyFunctions()] : [recordBuildSite(site)])],
  trailingSlash: 'ignore',
  // Astro serves no POST of ours (those are Netlify functions); unsupported methods get our 405.
  security: {
    checkOrigin: false,
    // docs/contract.md: HTML pages carry a Content-Security-Policy. Astro adds script-src and style-src
    // with the hashes of the scripts and styles it emits (https://docs.astro.build/en/reference/configuration-reference/#securitycsp).
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  // The site shows no images: `/_image` is answered like any unknown path (src/image-endpoint.ts).
  image: { endpoint: { route: '/_image', entrypoint: './src/image-endpoint.ts' } },
  // No Markdown pages; without this Astro warns that Shiki's inline styles conflict with the CSP.
  markdown: { syntaxHighlight: false },
  // On Netlify the SSR function carries its dependencies bundled and tree-shaken, not as package
  // files it loads one by one (zod's classic API alone is ~100 modules): a cold start loads far
  // less (docs/netlify.md). The Node build keeps them packages, shared with the local runtime.
  vite: netlifyBuild ? { ssr: { noExternal: true } } : {},
  telemetry: false,
  devToolbar: { enabled: false },
});
