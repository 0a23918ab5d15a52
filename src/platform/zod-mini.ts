import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod's mini API, for the schemas on a function's cold path (the owner's location update, the
 * configuration, the rate limiter): the same engine and the same schemas as the classic API, built
 * with functions instead of methods, so a bundle that needs no other schema leaves the classic API
 * (about 190 KiB, 20 ms of a cold start) out (docs/netlify.md). Unlike the classic API, the mini
 * one does not set English messages itself (https://zod.dev/packages/mini): set here, so that an
 * issue reads the same whichever API built the schema.
 */
z.config(en());

export * from 'zod/mini';
