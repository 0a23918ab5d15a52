import { z } from 'zod';

/** A 400 from body validation: `error` plus the fields that failed (CONTRACT.md, general rules). */
export const ValidationErrorSchema = z
  .object({
    error: z.string().meta({ description: 'What went wrong, in a few words.' }),
    issues: z
      .array(
        z
          .object({
            path: z.string().meta({ description: 'Dotted path of the member, e.g. `locations.0.geometry`.' }),
            message: z.string(),
          })
          .strict(),
      )
      .optional()
      .meta({ description: 'One entry per invalid member.' }),
  })
  .strict()
  .meta({ id: 'ValidationError', description: 'The request body (or its credentials) could not be used.' });

export type ValidationError = z.output<typeof ValidationErrorSchema>;
