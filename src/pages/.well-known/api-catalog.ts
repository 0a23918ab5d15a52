import type { APIRoute } from 'astro';
import {
  API_CATALOG_CONTENT_TYPE,
  API_CATALOG_PATH,
  type ApiCatalog,
  buildApiCatalog,
  DISCOVERY_CACHE_CONTROL,
  siteLink,
} from '../../discovery/api-catalog.ts';
import { buildOpenApiDocument } from '../../discovery/openapi-document.ts';
import { getConfig } from '../../platform/config.ts';
import { MethodNotAllowedError } from '../../platform/errors.ts';
import { errorResponse, jsonResponse, PUBLIC_CORS_HEADERS, publicPreflight } from '../../platform/http.ts';

// On demand: a static file could not carry the linkset media type (notes/platform.md §7).
export const prerender = false;

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;

let built: { siteUrl: string; catalog: ApiCatalog } | undefined;

/** The catalog for the configured SITE_URL, built once (it changes only with a deploy). */
function catalogFor(siteUrl: string): ApiCatalog {
  if (built?.siteUrl !== siteUrl) built = { siteUrl, catalog: buildApiCatalog(siteUrl, buildOpenApiDocument(siteUrl)) };
  return built.catalog;
}

/** RFC 9727: the API catalog as Linkset JSON, for GET and (by Astro, same headers) HEAD. */
export const GET: APIRoute = ({ cache }) => {
  const siteUrl = getConfig().SITE_URL;
  cache.set({ maxAge: 300, tags: ['discovery'] });
  return jsonResponse(catalogFor(siteUrl), {
    etag: true,
    headers: {
      ...PUBLIC_CORS_HEADERS,
      'Content-Type': API_CATALOG_CONTENT_TYPE,
      'Cache-Control': DISCOVERY_CACHE_CONTROL,
      Link: `<${siteLink(siteUrl, API_CATALOG_PATH)}>; rel="api-catalog"`,
    },
  });
};

// Astro sends `ALL` a HEAD before falling back to GET, so HEAD is named: GET's headers, no body.
export const HEAD: APIRoute = (context) => GET(context);

export const OPTIONS: APIRoute = () => publicPreflight(ALLOW);

/** Read-only for everyone (RFC 9727 §8). */
export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS);
