import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod as every module imports it: the mini API tree-shakes (the classic one adds ~190 KiB, docs/netlify.md)
// but sets no messages of its own (https://zod.dev/packages/mini), so English is set here.
z.config(en());

export * from 'zod/mini';
