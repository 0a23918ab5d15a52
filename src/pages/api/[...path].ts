import type { APIRoute } from 'astro';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponse } from '../../lib/http.ts';

export const prerender = false;

/** Any other path under /api/ is a JSON 404, whatever the method. */
export const ALL: APIRoute = () => errorResponse(new NotFoundError());
