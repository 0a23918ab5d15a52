import * as z from '../platform/zod-mini.ts';

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
  textField().check(
    z.trim(),
    z.refine((value) => characters(value) >= min && characters(value) <= max, {
      message: `must be ${min} to ${max} characters`,
      abort: true,
    }),
    // The refinement above is invisible to the JSON Schema generator; say the same thing there.
    z.meta({ minLength: min, maxLength: max, pattern: '\\S' }),
  );

export const ContactNameSchema = text(1, 100).check(
  z.refine((value) => !LINE_BREAK_OR_CONTROL.test(value), {
    message: 'must be a single line without control characters',
  }),
  z.describe('Who is writing: 1 to 100 characters, one line.'),
);

export const ContactEmailSchema = z
  .pipe(
    textField().check(z.trim()),
    z
      .email({ message: 'must be a valid e-mail address' })
      .check(z.maxLength(254, { message: 'must be at most 254 characters' })),
  )
  .check(z.describe('Where the owner can reply: a valid address of at most 254 characters.'));

export const ContactMessageSchema = z
  .pipe(
    // One line-break convention, so that a CRLF counts once as the visitor typed it once.
    z.pipe(
      textField(),
      z.transform((value: string) => value.replace(/\r\n?/g, '\n')),
    ),
    text(1, 5000).check(
      z.refine((value) => !CONTROL_EXCEPT_TAB_AND_NEWLINE.test(value), 'must not contain control characters'),
    ),
  )
  .check(z.describe('The message: 1 to 5000 characters, plain text, line breaks allowed.'));

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
      website: z
        .optional(textField())
        .check(
          z.describe(
            'Honeypot: a field hidden from people, so it stays empty. When it is filled the answer is the same as for a sent message, and nothing is sent.',
          ),
        ),
    },
    { error: 'must be an object with name, email and message' },
  )
  .check(
    z.meta({
      id: 'ContactRequest',
      description: 'A message for the site owner. Leading and trailing white space is ignored in every field.',
      examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello! I enjoyed your article.' }],
    }),
  );

export const ContactAcceptedSchema = z
  .strictObject({
    status: z
      .enum(['sent', 'queued'])
      .check(
        z.describe(
          '`sent`: the mail server accepted the message. `queued`: the mail server is failing; the message is stored and delivered as soon as it accepts it.',
        ),
      ),
  })
  .check(z.meta({ id: 'ContactAccepted' }));

export const ContactUnavailableSchema = z
  .strictObject({
    error: z.literal('contact unavailable'),
    mailto: z
      .optional(z.string().check(z.startsWith('mailto:')))
      .check(z.describe('A `mailto:` link to write to instead; absent when the site offers no address.')),
  })
  .check(z.meta({ id: 'ContactUnavailable' }));

const unixMs = () => z.int().check(z.minimum(0));

/**
 * A message waiting in the outbox (Blobs store `contact`) until the mail server accepts it.
 * `messageId` and `receivedAt` never change, so every attempt sends the same mail.
 */
export const OutboxMessageSchema = z.object({
  id: z.uuid(),
  messageId: z.string().check(z.regex(/^<[^<>\s]+@[^<>\s]+>$/)),
  receivedAt: unixMs(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  attempts: z.int().check(z.minimum(0)),
  /** Not before this time (Unix ms) may anyone try to send it; also how a sender claims it. */
  nextAttemptAt: unixMs(),
  /** Why the last attempt failed, as an error code: never a server's words or the message. */
  lastError: z.optional(z.string().check(z.maxLength(100))),
});

export type ContactRequest = z.output<typeof ContactRequestSchema>;
export type ContactAccepted = z.output<typeof ContactAcceptedSchema>;
export type OutboxMessage = z.output<typeof OutboxMessageSchema>;
