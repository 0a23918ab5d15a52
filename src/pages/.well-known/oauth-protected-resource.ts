import type { APIRoute } from 'astro';
import { protectedResourceMetadata } from '../../location/bearer-auth.ts';
import { ProtectedResourceMetadataSchema } from '../../location/protected-resource-schemas.ts';
import { getConfig } from '../../platform/config.ts';
import { MethodNotAllowedError } from '../../platform/errors.ts';
import { errorResponse, jsonResponse, PUBLIC_CORS_HEADERS, publicPreflight } from '../../platform/http.ts';

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
