import * as z from 'zod';

/** Length as JSON Schema counts it (RFC 8259 characters = code points), not UTF-16 units. */
const characters = (value: string) => [...value].length;

// Tabs, line breaks and the other C0/C1 controls, plus the Unicode line and paragraph separators.
const LINE_BREAK_OR_CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
// In a message, only tab and line breaks are allowed among the controls.
const CONTROL_EXCEPT_TAB_AND_NEWLINE = /[\p{Cc}--[\t\n]]/v;

/** A string field: its absence and a wrong type get messages a person understands. */
const textField = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') });

/** Free text of `min` to `max` characters after trimming, counted as JSON Schema counts them. */
const text = (min: number, max: number) =>
  textField()
    .trim()
    .refine((value) => characters(value) >= min && characters(value) <= max, {
      message: `must be ${min} to ${max} characters`,
      abort: true,
    })
    // The refinement above is invisible to the JSON Schema generator; say the same thing there.
    .meta({ minLength: min, maxLength: max, pattern: '\\S' });

export const ContactNameSchema = text(1, 100)
  .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), {
    message: 'must be a single line without control characters',
  })
  .meta({ description: 'Who is writing: 1 to 100 characters, one line.' });

export const ContactEmailSchema = textField()
  .trim()
  .pipe(z.email({ message: 'must be a valid e-mail address' }).max(254, { message: 'must be at most 254 characters' }))
  .meta({ description: 'Where the owner can reply: a valid address of at most 254 characters.' });

export const ContactMessageSchema = textField()
  // One line-break convention, so that a CRLF counts once as the visitor typed it once.
  .transform((value) => value.replace(/\r\n?/g, '\n'))
  .pipe(
    text(1, 5000).refine((value) => !CONTROL_EXCEPT_TAB_AND_NEWLINE.test(value), 'must not contain control characters'),
  )
  .meta({ description: 'The message: 1 to 5000 characters, plain text, line breaks allowed.' });

/**
 * POST /api/contact, as JSON or as an HTML form (`application/x-www-form-urlencoded`). Unknown
 * fields are ignored, so a form may carry a submit button's name or other fields of its own.
 */
export const ContactRequestSchema = z
  .looseObject(
    {
      name: ContactNameSchema,
      email: ContactEmailSchema,
      message: ContactMessageSchema,
      website: textField().optional().meta({
        description:
          'Honeypot: a field hidden from people, so it stays empty. When it is filled the answer is the same as for a sent message, and nothing is sent.',
      }),
    },
    { error: 'must be an object with name, email and message' },
  )
  .meta({
    id: 'ContactRequest',
    description: 'A message for the site owner. Leading and trailing white space is ignored in every field.',
    examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello! I enjoyed your article.' }],
  });

export const ContactAcceptedSchema = z
  .object({
    status: z.enum(['sent', 'queued']).meta({
      description:
        '`sent`: the mail server accepted the message. `queued`: the mail server is failing; the message is stored and delivered as soon as it accepts it.',
    }),
  })
  .strict()
  .meta({ id: 'ContactAccepted' });

export const ContactUnavailableSchema = z
  .object({
    error: z.literal('contact unavailable'),
    mailto: z
      .string()
      .startsWith('mailto:')
      .optional()
      .meta({ description: 'A `mailto:` link to write to instead; absent when the site offers no address.' }),
  })
  .strict()
  .meta({ id: 'ContactUnavailable' });

/**
 * A message waiting in the outbox (Blobs store `contact`) until the mail server accepts it.
 * `messageId` and `receivedAt` never change, so every attempt sends the same mail.
 */
export const OutboxMessageSchema = z.object({
  id: z.uuid(),
  messageId: z.string().regex(/^<[^<>\s]+@[^<>\s]+>$/),
  receivedAt: z.int().min(0),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  attempts: z.int().min(0),
  /** Not before this time (Unix ms) may anyone try to send it; also how a sender claims it. */
  nextAttemptAt: z.int().min(0),
  /** Why the last attempt failed, as an error code: never a server's words or the message. */
  lastError: z.string().max(100).optional(),
});

export type ContactRequest = z.output<typeof ContactRequestSchema>;
export type ContactAccepted = z.output<typeof ContactAcceptedSchema>;
export type OutboxMessage = z.output<typeof OutboxMessageSchema>;
