/** Where the discovery documents live, and the API catalog (RFC 9727) derived from SITE_URL and the OpenAPI document. */

// The platform sends the catalog's Link on every answer, so it defines the path.
export { API_CATALOG_LINK, API_CATALOG_PATH } from '../platform/http.ts';

export const OPENAPI_PATH = '/docs/openapi.json';
export const DOCS_PATH = '/docs/api/';
/** The MCP endpoint (src/mcp/), documented in its own section of the API reference. */
export const MCP_PATH = '/mcp';
export const AGENT_SKILLS_INDEX_PATH = '/.well-known/agent-skills/index.json';
/** The job health endpoints, linked as `status` (RFC 8631) once the OpenAPI document has them. */
const STATUS_PATHS = ['/api/publish-status', '/api/professional-network-status', '/api/recorder-status'];

/** RFC 9727 §4.2 and §7: Linkset JSON with the RFC's profile (a quoted string: URIs are not tokens). */
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** Discovery documents change only with a deploy; 5 minutes keeps an index and its skill in step. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/** Linkset JSON: contexts, each an anchor and its relations, each relation an array of targets (RFC 9264 §4.2). */
type LinkTarget = { href: string; type?: string; title?: string };
export interface ApiCatalog {
  linkset: ({ anchor: string } & { [relation: string]: LinkTarget[] | string })[];
}

/** An absolute URL on the site. */
export const siteLink = (siteUrl: string, path: string): string => new URL(path, siteUrl).href;

/**
 * One context for the API (`/api/`): its description, docs, agent metadata, status endpoints and, as `item`,
 * every endpoint the description lists. A second for the MCP endpoint (one JSON-RPC endpoint): its docs.
 */
export function buildApiCatalog(
  siteUrl: string,
  document: { info: { title: string; version: string }; paths: Record<string, Record<string, unknown>> },
): ApiCatalog {
  const link = (path: string, type?: string, title?: string): LinkTarget => ({
    href: siteLink(siteUrl, path),
    ...(type && { type }),
    ...(title && { title }),
  });
  const paths = Object.keys(document.paths);
  const status = STATUS_PATHS.filter((path) => document.paths[path]?.get !== undefined);
  const { title, version } = document.info;
  return {
    linkset: [
      {
        anchor: siteLink(siteUrl, '/api/'),
        'service-desc': [link(OPENAPI_PATH, 'application/json', `OpenAPI ${version} description of ${title}`)],
        'service-doc': [link(DOCS_PATH, 'text/html', 'API reference')],
        'service-meta': [
          link(AGENT_SKILLS_INDEX_PATH, 'application/json', 'Agent Skills index'),
          link('/.well-known/oauth-protected-resource', 'application/json', 'Protected resource metadata'),
        ],
        // The API's endpoints; documents under /.well-known/ describe the API and are not items of it.
        item: paths.filter((path) => path.startsWith('/api/') && !path.includes('{')).map((path) => link(path)),
        ...(status.length > 0 && { status: status.map((path) => link(path, 'application/json')) }),
      },
      {
        anchor: siteLink(siteUrl, MCP_PATH),
        'service-doc': [
          link(`${DOCS_PATH}#mcp`, 'text/html', 'MCP endpoint (Streamable HTTP): tools and how to connect'),
        ],
        'service-meta': [link(AGENT_SKILLS_INDEX_PATH, 'application/json', 'Agent Skills index')],
      },
    ],
  };
}
