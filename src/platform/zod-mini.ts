import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod as every module imports it (the linter refuses `zod` elsewhere): the mini API keeps only the
 * functions a bundle calls, where the classic API's methods all come along (about 190 KiB;
 * docs/netlify.md). It sets no messages of its own (https://zod.dev/packages/mini): English here.
 */
z.config(en());

export * from 'zod/mini';
