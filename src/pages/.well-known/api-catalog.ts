import {
  API_CATALOG_CONTENT_TYPE,
  API_CATALOG_PATH,
  buildApiCatalog,
  DISCOVERY_CACHE_CONTROL,
  siteLink,
} from '../../discovery/api-catalog.ts';
import { openApiOutline } from '../../discovery/openapi-document.ts';
import { getConfig } from '../../platform/config.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

// On demand: a static file could not carry the linkset media type (Astro drops the headers a prerendered endpoint sets, and serves an extension-less file as application/octet-stream).
export const prerender = false;

/** RFC 9727: the API catalog as Linkset JSON, read-only for everyone (§8). */
export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => {
  const siteUrl = getConfig().SITE_URL;
  return {
    body: buildApiCatalog(siteUrl, openApiOutline()),
    headers: {
      'Content-Type': API_CATALOG_CONTENT_TYPE,
      'Cache-Control': DISCOVERY_CACHE_CONTROL,
      Link: `<${siteLink(siteUrl, API_CATALOG_PATH)}>; rel="api-catalog"`,
    },
    cache: { maxAge: 300, kind: 'discovery' },
  };
});
