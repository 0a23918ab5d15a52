import type { Config, Context } from '@netlify/functions';
import {
  isEmptyOwnTracksPost,
  LOCATION_CACHE_TAG,
  MAX_BODY_BYTES,
  receiveLocationUpdate,
  requireLocationOwner,
} from '../../src/location/location.ts';
import { invalidateRouteCache } from '../../src/platform/cache/route-cache.ts';
import { errorResponse, respond } from '../../src/platform/http.ts';
import { readBody } from '../../src/platform/request-body.ts';

/**
 * POST /api/location: the owner's phone updates the travel-mode pin. GET, HEAD and OPTIONS on the
 * same path are the Astro endpoint's (src/pages/api/location.ts). No CORS here: phone apps do not
 * need it, and no browser page should hold the owner's token.
 */
export default async (request: Request, context: Context): Promise<Response> => {
  // Housekeeping (the limiter's, superseded keys, the CDN purge) is finished after the answer.
  const later = (task: Promise<unknown>) => context.waitUntil(task);
  try {
    await requireLocationOwner(request, context.ip, later);
    if (isEmptyOwnTracksPost(request)) return respond({ json: [] });
    const { value } = await readBody(request, { maxBytes: MAX_BODY_BYTES, accept: ['json'] });
    const { answer, changed } = await receiveLocationUpdate(value, { later });
    if (changed) await invalidateRouteCache([LOCATION_CACHE_TAG], later);
    return respond({ json: answer });
  } catch (error) {
    return errorResponse(error);
  }
};

// With and without a trailing slash, as the site serves every path (`trailingSlash: 'ignore'`):
// otherwise POST /api/location/ would reach the Astro route, whose 405 lists POST in `Allow`.
export const config: Config = { path: ['/api/location', '/api/location/'], method: ['POST'] };
