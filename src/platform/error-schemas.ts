import * as z from 'zod';

/** One field that failed validation: where (a dotted path into the body) and why. */
export const IssueSchema = z
  .object({
    path: z.string().meta({ description: 'Dotted path of the field in the request body (`""` for the body itself).' }),
    message: z.string().meta({ description: 'What is wrong with it.' }),
  })
  .strict()
  .meta({ id: 'Issue' });

/** Every error body (CONTRACT: "an object with a string field `error`"; a 400 may add `issues`). */
export const ErrorSchema = z
  .object({
    error: z.string().meta({ description: 'What went wrong, in a few words. Never echoes input.' }),
    issues: z
      .array(IssueSchema)
      .optional()
      .meta({ description: 'Only on a 400 from body validation: the fields that failed.' }),
  })
  .strict()
  .meta({ id: 'Error' });

export type Issue = z.output<typeof IssueSchema>;
export type ErrorBody = z.output<typeof ErrorSchema>;
