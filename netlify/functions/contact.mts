import type { Config, Context } from '@netlify/functions';
import { CONTACT_MAX_BODY_BYTES, parseContactRequest, submitContactMessage } from '../../src/contact/contact.ts';
import {
  acceptedForm,
  acceptedJson,
  answersWithHtml,
  assertOwnOrigin,
  contactCorsHeaders,
  contactPreflight,
  errorForm,
} from '../../src/contact/contact-view.ts';
import { getConfig } from '../../src/platform/config.ts';
import { errorResponse, respond } from '../../src/platform/http.ts';
import { readBody } from '../../src/platform/request-body.ts';

/**
 * POST /api/contact: a visitor's message for the site owner, by e-mail (README, "Contact form").
 * Other methods fall through to src/pages/api/contact.ts, which answers 405.
 */
export default async (request: Request, context: Context): Promise<Response> => {
  const { SITE_URL } = getConfig();
  if (request.method === 'OPTIONS') return respond(contactPreflight(request, SITE_URL));
  const html = answersWithHtml(request);
  try {
    assertOwnOrigin(request, SITE_URL);
    const { value } = await readBody(request, { maxBytes: CONTACT_MAX_BODY_BYTES, accept: ['json', 'form'] });
    const outcome = await submitContactMessage(parseContactRequest(value), { client: context.ip });
    return respond(html ? acceptedForm(request, outcome, SITE_URL) : acceptedJson(outcome, SITE_URL));
  } catch (error) {
    return html ? respond(errorForm(error, request, SITE_URL)) : errorResponse(error, contactCorsHeaders(SITE_URL));
  }
};

// The per-client limit (5 messages an hour) is kept in Blobs by src/platform/rate-limit.ts rather than
// Netlify's `rateLimit` setting: that one counts every request, valid or not, answers its own 429
// without `Retry-After`, and does not exist in the local runtime.
// With and without a trailing slash, as the site serves every path (`trailingSlash: 'ignore'`):
// otherwise POST /api/contact/ would reach the Astro route, whose 405 lists POST in `Allow`.
export const config: Config = {
  path: ['/api/contact', '/api/contact/'],
  method: ['POST', 'OPTIONS'],
};
