import * as z from './zod-mini.ts';

/** One field that failed validation: where (a dotted path into the body) and why. */
const IssueSchema = z
  .strictObject({
    path: z.string().check(z.describe('Dotted path of the field in the request body (`""` for the body itself).')),
    message: z.string().check(z.describe('What is wrong with it.')),
  })
  .check(z.meta({ id: 'Issue' }));

/** Every error body (docs/contract.md: an object with a string `error`; a 400 may add `issues`). */
export const ErrorSchema = z
  .strictObject({
    error: z.string().check(z.describe('What went wrong, in a few words. Never echoes input.')),
    issues: z
      .optional(z.array(IssueSchema))
      .check(z.describe('Only on a 400 from body validation: the fields that failed.')),
  })
  .check(z.meta({ id: 'Error' }));
