import type { Config, Context } from '@netlify/functions';
import { ALERTS_MAX_BODY_BYTES, cancelAlert, createAlert } from '../../src/alerts/alerts.ts';
import { methodNotAllowed, unavailableAs503 } from '../../src/platform/errors.ts';
import { errorResponse, respond } from '../../src/platform/http.ts';
import { readBody } from '../../src/platform/request-body.ts';

/**
 * POST /api/alerts (a push alert for one ride, docs/alerts-push.md) and DELETE /api/alerts/{id}.
 * GET /api/alerts/key and the 405s of other methods are the Astro endpoints' (src/pages/api/alerts*).
 * No CORS: only the site's own park pages subscribe, and a JSON POST from elsewhere fails its preflight.
 */
export default async (request: Request, context: Context): Promise<Response> => {
  const id = context.params?.id;
  try {
    if (id === undefined) {
      if (request.method !== 'POST') throw methodNotAllowed(['POST']);
      const { value } = await readBody(request, { maxBytes: ALERTS_MAX_BODY_BYTES, accept: ['json'] });
      return respond(await unavailableAs503('alerts unavailable', () => createAlert(value, { client: context.ip })));
    }
    if (request.method !== 'DELETE') throw methodNotAllowed(['DELETE']);
    return respond(await unavailableAs503('alerts unavailable', () => cancelAlert(id)));
  } catch (error) {
    return errorResponse(error);
  }
};

// The per-client limit is kept in Blobs (src/platform/rate-limit.ts), as for the contact form: it
// counts valid subscriptions only and answers with `Retry-After`. Both paths with and without a
// trailing slash, as the site serves every path (`trailingSlash: 'ignore'`).
// `/api/alerts/key` is the Astro endpoint's for every method (its 405s list GET, HEAD, OPTIONS).
export const config: Config = {
  path: ['/api/alerts', '/api/alerts/', '/api/alerts/:id', '/api/alerts/:id/'],
  excludedPath: ['/api/alerts/key', '/api/alerts/key/'],
  method: ['POST', 'DELETE'],
};
