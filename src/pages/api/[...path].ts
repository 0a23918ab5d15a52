import type { APIRoute } from 'astro';
import { notFound } from '../../platform/errors.ts';
import { errorResponse } from '../../platform/http.ts';

export const prerender = false;

/** Any other path under /api/ is a JSON 404, whatever the method. */
export const ALL: APIRoute = () => errorResponse(notFound());
