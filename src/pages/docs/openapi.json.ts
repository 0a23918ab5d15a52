import type { APIRoute } from 'astro';
import { getConfig } from '../../lib/config.ts';
import { buildOpenApiDocument } from '../../openapi/document.ts';

// Generated at build time from the schemas, served as a static file.
export const prerender = true;

export const GET: APIRoute = () => Response.json(buildOpenApiDocument(getConfig().SITE_URL));
