import type { APIRoute } from 'astro';
import { buildOpenApiDocument } from '../../discovery/openapi-document.ts';
import { getConfig } from '../../platform/config.ts';
import { respond } from '../../platform/http.ts';

// Generated at build time from the schemas, served as a static file.
export const prerender = true;

export const GET: APIRoute = async () => respond({ json: await buildOpenApiDocument(getConfig().SITE_URL) });
