import { z } from 'zod';

/** 400 from body validation: which fields are wrong and why, never the values sent. */
export const ValidationErrorSchema = z
  .object({
    error: z.string().meta({ description: 'What went wrong, in a few words.' }),
    issues: z
      .array(
        z.object({
          path: z.string().meta({ description: 'The field, as a dot-separated path; empty for the body as a whole.' }),
          message: z.string().meta({ description: 'What is wrong with it.' }),
        }),
      )
      .meta({ description: 'One entry per problem, all of them at once.' }),
  })
  .meta({ id: 'ValidationError' });

export type ValidationError = z.output<typeof ValidationErrorSchema>;
