import { protectedResourceMetadata } from '../../location/bearer-auth.ts';
import { ProtectedResourceMetadataSchema } from '../../location/location-schemas.ts';
import { getConfig } from '../../platform/config.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

// On demand, not prerendered: `resource` must be the SITE_URL of the running deployment.
export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => ({
  body: ProtectedResourceMetadataSchema.parse(protectedResourceMetadata(getConfig().SITE_URL)),
  headers: { 'Cache-Control': 'public, max-age=3600' },
}));
