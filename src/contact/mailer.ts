import type { SendMailOptions } from 'nodemailer';

/**
 * The one module that speaks SMTP. Mail is plain text, from the site's own address to the
 * owner, with the visitor only in `Reply-To`; nothing a visitor typed can become a header of its
 * own or a recipient.
 */

/** Where contact mail goes: all three come from the environment (README, "Contact form"). */
export interface MailSettings {
  /** `smtp://user:pass@host:587` or `smtps://…`; a secret, never logged. */
  smtpUrl: string;
  from: string;
  to: string;
}

/** One contact message as it is mailed; the same values on every attempt make the same mail. */
export interface ContactMail {
  /** `<id@host>`: stable across retries, so a mail delivered twice is recognisably one. */
  messageId: string;
  receivedAt: Date;
  name: string;
  email: string;
  message: string;
  /** The site's host name, shown in the subject so the owner sees where the mail came from. */
  siteHost: string;
}

// A visitor gets an answer within the function's time limit, and a dead server costs seconds, not
// minutes (nodemailer's defaults are 2 and 10 minutes).
const TIMEOUTS = {
  dnsTimeout: 5_000,
  connectionTimeout: 8_000,
  greetingTimeout: 8_000,
  socketTimeout: 15_000,
} as const;

const UNSAFE_IN_HEADER = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
// An address we put in a header must be one plain token: no white space, quotes, brackets or lists.
const PLAIN_ADDRESS = /^[^\s"<>(),;:\\[\]@]+@[^\s"<>(),;:\\[\]@]+$/;

/** One line of text: every line break and control character becomes a space, runs of white space collapse. */
function flatten(value: string): string {
  return value.replace(UNSAFE_IN_HEADER, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Text that is safe as (part of) a header value: flattened to one line and at most `maxLength`
 * characters. A `=?` gets a space (`= ?`) so that typed text never reads as an RFC 2047 encoded
 * word, which a mail client would decode into something else (line breaks included).
 */
export function singleLine(value: string, maxLength = 200): string {
  const flat = flatten(value.replace(/=\?/g, '= ?'));
  const chars = [...flat];
  return chars.length <= maxLength ? flat : `${chars.slice(0, maxLength - 1).join('')}…`;
}

/** The subject the owner sees: the site and the visitor's name, on one line. */
export function contactSubject(name: string, siteHost: string): string {
  return `Contact form on ${singleLine(siteHost, 100)}: message from ${singleLine(name, 100)}`;
}

/** The plain-text body: who wrote, when, and the message exactly as typed. */
export function contactText(mail: ContactMail): string {
  return [
    `Name: ${flatten(mail.name)}`,
    `E-mail: ${mail.email}`,
    `Received: ${mail.receivedAt.toISOString()}`,
    '',
    mail.message,
    '',
  ].join('\n');
}

/**
 * The message as nodemailer takes it. From and the envelope are the site's own addresses; the
 * visitor's address goes into `Reply-To` only, as an address object that nodemailer quotes and
 * encodes, so a name like `Eve <eve@evil.example>, x` stays a display name.
 */
export function composeContactMail(settings: MailSettings, mail: ContactMail): SendMailOptions {
  for (const address of [settings.from, settings.to, mail.email]) {
    if (!PLAIN_ADDRESS.test(address)) throw new TypeError('refusing to put an unusual address in a mail header');
  }
  if (!/^<[^<>\s]+@[^<>\s]+>$/.test(mail.messageId)) throw new TypeError('malformed Message-ID');
  return {
    from: settings.from,
    to: settings.to,
    replyTo: { name: singleLine(mail.name, 100), address: mail.email },
    // Only ever the owner: never derived from Reply-To or anything else the visitor sent.
    envelope: { from: settings.from, to: [settings.to] },
    subject: contactSubject(mail.name, mail.siteHost),
    text: contactText(mail),
    textEncoding: 'quoted-printable',
    messageId: mail.messageId,
    date: mail.receivedAt,
    // Nothing in this mail may be fetched or read from disk, whatever a field contains.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The SMTP server did not take the mail; `code` is safe to log (no server text, no secrets). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  readonly code: string;

  constructor(code: string, options?: { cause?: unknown }) {
    super(`mail not accepted (${code})`, options);
    this.code = code;
  }
}

/**
 * Sends one contact mail and resolves once the SMTP server has accepted it (250 after DATA).
 * Anything else rejects with a MailDeliveryError. `signal` bounds the whole exchange.
 */
export async function sendContactMail(settings: MailSettings, mail: ContactMail, signal?: AbortSignal): Promise<void> {
  // Loaded on the first mail only: a function's cold start (a 400 or a 503 never needs it) skips it.
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: settings.smtpUrl,
    ...TIMEOUTS,
    logger: false,
    debug: false,
  });
  try {
    const info = await transport.sendMail({ ...composeContactMail(settings, mail), ...(signal ? { signal } : {}) });
    if (info.rejected.length > 0 || info.accepted.length === 0) throw new MailDeliveryError('EENVELOPE');
  } catch (error) {
    if (error instanceof MailDeliveryError) throw error;
    throw new MailDeliveryError(errorCode(error), { cause: error });
  } finally {
    transport.close();
  }
}

/** A short, log-safe description of an SMTP failure: nodemailer's code and the reply code. */
function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'EUNKNOWN';
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  const name = typeof code === 'string' && /^[A-Z_0-9]{1,30}$/.test(code) ? code : 'EUNKNOWN';
  return typeof responseCode === 'number' ? `${name} ${responseCode}` : name;
}
