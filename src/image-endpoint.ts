import type { APIRoute } from 'astro';

/**
 * Stands in for Astro's on-demand image endpoint (`/_image`, which Astro adds to every server
 * build; astro.config.mjs points `image.endpoint.entrypoint` here). The site shows no images, so
 * that endpoint had nothing to do but run an image processor for anyone who asked, and it
 * answered 500 to requests it could not process (`/_image?href=/docs/openapi.json`). Now
 * `/_image` is a path the site does not have: the 404 page, like any other.
 */
export const prerender = false;

export const ALL: APIRoute = ({ rewrite }) => rewrite('/404');
