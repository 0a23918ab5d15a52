import type { SendMailOptions } from 'nodemailer';
import type { OutboxMessage } from './contact-schemas.ts';

/** From the environment; `smtpUrl` holds credentials and is never logged. */
export interface MailSettings {
  smtpUrl: string;
  from: string;
  to: string;
}

/** An outbox message as mailed, and the site host its subject names; the same record makes the same mail. */
export type ContactMail = Pick<OutboxMessage, 'messageId' | 'receivedAt' | 'name' | 'email' | 'message'> & {
  siteHost: string;
};

// A dead server costs seconds, not nodemailer's default minutes, and the visitor gets an answer in time.
const TIMEOUTS = { dnsTimeout: 5_000, connectionTimeout: 8_000, greetingTimeout: 8_000, socketTimeout: 15_000 };

// An address we put in a header must be one plain token: no white space, quotes, brackets or lists.
const PLAIN_ADDRESS = /^[^\s"<>(),;:\\[\]@]+@[^\s"<>(),;:\\[\]@]+$/;

/** One line: line breaks and controls become spaces, runs of white space collapse. */
const flatten = (value: string) =>
  value
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Text safe inside a header: one line of at most `maxLength` characters. `=?` gets a space so typed
 * text never reads as an RFC 2047 encoded word, which a mail client would decode (line breaks too).
 */
export function singleLine(value: string, maxLength = 200): string {
  const chars = [...flatten(value.replace(/=\?/g, '= ?'))];
  return chars.length <= maxLength ? chars.join('') : `${chars.slice(0, maxLength - 1).join('')}…`;
}

/**
 * The mail as nodemailer takes it, from the site to the owner. The visitor is only in `Reply-To`, as an
 * address object nodemailer quotes, so nothing typed becomes a header of its own or a recipient.
 */
export function composeContactMail(settings: MailSettings, mail: ContactMail): SendMailOptions {
  for (const address of [settings.from, settings.to, mail.email]) {
    if (!PLAIN_ADDRESS.test(address)) throw new TypeError('refusing to put an unusual address in a mail header');
  }
  if (!/^<[^<>\s]+@[^<>\s]+>$/.test(mail.messageId)) throw new TypeError('malformed Message-ID');
  const receivedAt = new Date(mail.receivedAt);
  return {
    from: settings.from,
    to: settings.to,
    replyTo: { name: singleLine(mail.name, 100), address: mail.email },
    // Only ever the owner: never derived from anything the visitor sent.
    envelope: { from: settings.from, to: [settings.to] },
    subject: `Contact form on ${singleLine(mail.siteHost, 100)}: message from ${singleLine(mail.name, 100)}`,
    text: `Name: ${flatten(mail.name)}\nE-mail: ${mail.email}\nReceived: ${receivedAt.toISOString()}\n\n${mail.message}\n`,
    textEncoding: 'quoted-printable',
    messageId: mail.messageId,
    date: receivedAt,
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

/** Resolves once the SMTP server accepted the mail (250 after DATA); `signal` bounds the exchange. */
export async function sendContactMail(settings: MailSettings, mail: ContactMail, signal: AbortSignal): Promise<void> {
  // Loaded when a mail goes out, so a 400 or 503 never loads it (tests/request/site/netlify-build.test.ts).
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ url: settings.smtpUrl, ...TIMEOUTS, logger: false, debug: false });
  try {
    const info = await transport.sendMail({ ...composeContactMail(settings, mail), signal });
    if (info.rejected.length > 0 || info.accepted.length === 0) throw new MailDeliveryError('EENVELOPE');
  } catch (error) {
    if (error instanceof MailDeliveryError) throw error;
    // nodemailer's code and the reply code only: never the server's words.
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    const name = typeof code === 'string' && /^[A-Z_0-9]{1,30}$/.test(code) ? code : 'EUNKNOWN';
    throw new MailDeliveryError(typeof responseCode === 'number' ? `${name} ${responseCode}` : name, { cause: error });
  } finally {
    transport.close();
  }
}
