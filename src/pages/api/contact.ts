import type { APIRoute } from 'astro';
import { CONTACT_ALLOW } from '../../contact/contact-view.ts';
import { MethodNotAllowedError } from '../../platform/errors.ts';
import { errorResponse } from '../../platform/http.ts';

export const prerender = false;

/**
 * POST and OPTIONS /api/contact are the function in netlify/functions/contact.mts, which runs
 * first; every other method reaches this route and gets 405 rather than 404.
 */
export const ALL: APIRoute = () => errorResponse(new MethodNotAllowedError(CONTACT_ALLOW));
