import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod, as every module here imports it (the linter refuses `zod` elsewhere): the mini API, whose
 * schemas are built with functions (`z.optional(x)`, `x.check(z.minimum(0), z.describe(…))`)
 * rather than methods. It is the same engine with the same checks, JSON Schema output and errors,
 * but a bundle keeps only the functions it calls, where the classic API's methods all come along
 * (about 190 KiB and 20 ms of each function's cold start; docs/netlify.md). Unlike the classic
 * API, the mini one sets no messages of its own (https://zod.dev/packages/mini): English is set
 * here, before any schema is used.
 */
z.config(en());

export * from 'zod/mini';
