import type { APIRoute } from 'astro';

/**
 * Replaces Astro's on-demand image endpoint `/_image` (astro.config.mjs): the site shows no images, and
 * that endpoint ran an image processor for anyone and answered 500 to what it could not process. Now a 404.
 */
export const prerender = false;

export const ALL: APIRoute = ({ rewrite }) => rewrite('/404');
