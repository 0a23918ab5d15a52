import * as z from '../platform/zod-mini.ts';

/** Length as JSON Schema counts it (RFC 8259 characters = code points), not UTF-16 units. */
const characters = (value: string) => [...value].length;

/** A string field whose absence and wrong type get messages a person understands. */
const textField = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') });

/**
 * Free text of `min` to `max` characters after trimming, counted as JSON Schema counts them; a CRLF
 * becomes one line break, as the visitor typed one.
 */
const text = (min: number, max: number) =>
  textField().check(
    z.trim(),
    z.overwrite((value) => value.replace(/\r\n?/g, '\n')),
    z.refine((value) => characters(value) >= min && characters(value) <= max, {
      message: `must be ${min} to ${max} characters`,
      abort: true,
    }),
    // The JSON Schema generator cannot see the refinement: say the same thing there.
    z.meta({ minLength: min, maxLength: max, pattern: '\\S' }),
  );

const ContactNameSchema = text(1, 100).check(
  z.refine((value) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(value), 'must be a single line without control characters'),
  z.describe('Who is writing: 1 to 100 characters, one line.'),
);

const ContactEmailSchema = textField().check(
  z.trim(),
  z.email({ message: 'must be a valid e-mail address' }),
  z.maxLength(254, { message: 'must be at most 254 characters' }),
  z.describe('Where the owner can reply: a valid address of at most 254 characters.'),
);

const ContactMessageSchema = text(1, 5000).check(
  // Of the controls, only tab and line break.
  z.refine((value) => !/[\p{Cc}--[\t\n]]/v.test(value), 'must not contain control characters'),
  z.describe('The message: 1 to 5000 characters, plain text, line breaks allowed.'),
);

/** POST /api/contact, JSON or form-encoded. Unknown fields are ignored (a form's submit button, say). */
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

// Registered for the OpenAPI document; contact.ts builds the 503.
z.strictObject({
  error: z.literal('contact unavailable'),
  mailto: z
    .optional(z.string().check(z.startsWith('mailto:')))
    .check(z.describe('A `mailto:` link to write to instead; absent when the site offers no address.')),
}).check(z.meta({ id: 'ContactUnavailable' }));

/** A message in the outbox (Blobs store `contact`) until the mail server accepts it. */
export const OutboxMessageSchema = z.object({
  id: z.uuid(),
  messageId: z.string().check(z.regex(/^<[^<>\s]+@[^<>\s]+>$/)),
  receivedAt: z.unixMs(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  attempts: z.int().check(z.minimum(0)),
  /** Nobody may try to send it before this; also how a sender claims it. */
  nextAttemptAt: z.unixMs(),
  /** The last failure's error code: never a server's words or the message. */
  lastError: z.optional(z.string().check(z.maxLength(100))),
});

/** A valid message, the honeypot read as empty when absent. */
export type ContactRequest = Pick<z.output<typeof ContactRequestSchema>, 'name' | 'email' | 'message'> & {
  website: string;
};
export type ContactOutcome = z.output<typeof ContactAcceptedSchema>['status'];
export type OutboxMessage = z.output<typeof OutboxMessageSchema>;
