import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../../platform/errors.ts';
import { errorResponse } from '../../../platform/http.ts';

export const prerender = false;

/** DELETE is netlify/functions/alerts.mts, which runs first; other methods get 405 here, not 404. */
export const ALL: APIRoute = () => errorResponse(methodNotAllowed(['DELETE']));
