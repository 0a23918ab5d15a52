/**
 * Where the discovery documents live and what the API catalog (RFC 9727) says. Everything is
 * derived from SITE_URL and the OpenAPI document, so a new endpoint shows up without edits here.
 */

// The catalog's path and Link are sent by the platform on every answer; they are defined there.
export { API_CATALOG_LINK, API_CATALOG_PATH } from '../platform/http.ts';

export const OPENAPI_PATH = '/docs/openapi.json';
export const DOCS_PATH = '/docs/api/';
export const AGENT_SKILLS_INDEX_PATH = '/.well-known/agent-skills/index.json';

/** RFC 9727 §4.2 and §7: Linkset JSON with the RFC's profile (a quoted string: URIs are not tokens). */
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** Discovery documents change only with a deploy; 5 minutes keeps an index and its skill in step. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/**
 * The job health endpoints (CONTRACT, "GET /api/publish-status, …"). The catalog lists each as a
 * `status` link (RFC 8631) once the OpenAPI document describes it.
 */
export const STATUS_PATHS: readonly string[] = ['/api/publish-status', '/api/professional-network-status'];

/** A Linkset target object (RFC 9264 §4.2.3–4.2.4). */
export interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
}

/** A link context object: an anchor and its relations, each an array of targets (RFC 9264 §4.2.2). */
export type LinkContext = { anchor: string } & { [relation: string]: LinkTarget[] | string };

export interface ApiCatalog {
  linkset: LinkContext[];
}

interface OpenApiLike {
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
}

/** RFC 9728 metadata of the one protected operation. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** An absolute URL on the site. */
export const siteLink = (siteUrl: string, path: string): string => new URL(path, siteUrl).href;

/**
 * The API catalog: one context for the API (base `/api/`) with its description, documentation,
 * agent metadata, status endpoints and, as `item` links, every endpoint the description lists.
 */
export function buildApiCatalog(siteUrl: string, document: OpenApiLike): ApiCatalog {
  const paths = Object.keys(document.paths);
  const status = STATUS_PATHS.filter((path) => document.paths[path]?.get !== undefined);
  const api: LinkContext = {
    anchor: siteLink(siteUrl, '/api/'),
    'service-desc': [
      {
        href: siteLink(siteUrl, OPENAPI_PATH),
        type: 'application/json',
        title: `OpenAPI ${document.info.version} description of ${document.info.title}`,
      },
    ],
    'service-doc': [{ href: siteLink(siteUrl, DOCS_PATH), type: 'text/html', title: 'API reference' }],
    'service-meta': [
      { href: siteLink(siteUrl, AGENT_SKILLS_INDEX_PATH), type: 'application/json', title: 'Agent Skills index' },
      ...paths
        .filter((path) => path === PROTECTED_RESOURCE_PATH)
        .map((path) => ({
          href: siteLink(siteUrl, path),
          type: 'application/json',
          title: 'Protected resource metadata',
        })),
    ],
    // The API's endpoints; documents under /.well-known/ describe the API and are not items of it.
    item: paths
      .filter((path) => path.startsWith('/api/') && !path.includes('{'))
      .map((path) => ({ href: siteLink(siteUrl, path) })),
  };
  if (status.length > 0)
    api.status = status.map((path) => ({ href: siteLink(siteUrl, path), type: 'application/json' }));
  return { linkset: [api] };
}
