import type { APIRoute } from 'astro';
import { protectedResourceMetadata } from '../../lib/bearer-auth.ts';
import { getConfig } from '../../lib/config.ts';
import { MethodNotAllowedError } from '../../lib/errors.ts';
import { errorResponse, jsonResponse, PUBLIC_CORS_HEADERS, publicPreflight } from '../../lib/http.ts';
import { ProtectedResourceMetadataSchema } from '../../schemas/protected-resource.ts';

// On demand, not prerendered: `resource` must be the SITE_URL of the running deployment.
export const prerender = false;

const ALLOW = ['GET', 'HEAD', 'OPTIONS'] as const;

export const GET: APIRoute = () =>
  jsonResponse(ProtectedResourceMetadataSchema.parse(protectedResourceMetadata(getConfig().SITE_URL)), {
    etag: true,
    headers: { ...PUBLIC_CORS_HEADERS, 'Cache-Control': 'public, max-age=3600' },
  });

export const HEAD: APIRoute = (context) => GET(context);

export const OPTIONS: APIRoute = () => publicPreflight(ALLOW);

export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(ALLOW), PUBLIC_CORS_HEADERS);
