import type { APIRoute } from 'astro';
import { CONTACT_ALLOW } from '../../contact/contact-view.ts';
import { methodNotAllowed } from '../../platform/errors.ts';
import { errorResponse } from '../../platform/http.ts';

export const prerender = false;

/** POST and OPTIONS are netlify/functions/contact.mts, which runs first; other methods get 405 here, not 404. */
export const ALL: APIRoute = () => errorResponse(methodNotAllowed(CONTACT_ALLOW));
