import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod as every module imports it: the mini API tree-shakes (the classic one adds ~190 KiB, docs/netlify.md)
// but sets no messages of its own (https://zod.dev/packages/mini), so English is set here.
z.config(en());

export * from 'zod/mini';

// Our own helpers, shared by every feature's schemas (a function, so each use can add its own description).

/** A time in Unix milliseconds. */
export const unixMs = () => z.int().check(z.minimum(0));

/** A string with at least one character. */
export const nonEmpty = () => z.string().check(z.minLength(1));
