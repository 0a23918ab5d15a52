import { randomUUID } from 'node:crypto';
import { type Config, getConfig } from '../platform/config.ts';
import { BadRequestError, HttpError, TooManyRequestsError } from '../platform/errors.ts';
import { hitRateLimit, type RateLimit } from '../platform/rate-limit.ts';
import {
  deleteRecords,
  listEntries,
  readRecord,
  replaceRecordIfUnchanged,
  timeKey,
  writeRecord,
} from '../platform/store.ts';
import { ContactRequestSchema, type OutboxMessage, OutboxMessageSchema } from './contact-schemas.ts';
import { type ContactMail, MailDeliveryError, type MailSettings, sendContactMail } from './mailer.ts';

/**
 * The contact form's rules. A message is kept in the outbox (Blobs store `contact`) before the
 * first attempt to send it and stays there until an SMTP server has accepted it, so a message
 * that was answered 200 or 202 is never lost: the scheduled `contact-retry` function sends what
 * is left, with backoff. Every attempt sends the same mail (same Message-ID and Date), so if a
 * mail ever goes out twice (a server that accepted but whose answer was lost) the copies are
 * recognisably one message.
 */

/** Bodies larger than this are refused with 413 before they are read any further. */
export const CONTACT_MAX_BODY_BYTES = 32 * 1024;

/** 5 messages per client per hour; only well-formed messages count (a typo costs nothing). */
export const CONTACT_RATE_LIMIT: RateLimit = { name: 'contact', limit: 5, windowMs: 60 * 60 * 1000 };

/** How long the visitor waits for the first attempt before being told "queued". */
export const DIRECT_SEND_TIMEOUT_MS = 10_000;

/** While someone is sending a message, nobody else may start to (longer than any attempt lasts). */
export const CLAIM_MS = 2 * 60 * 1000;

/** Waits after the 1st, 2nd, … failed attempt; the last one repeats until the server accepts. */
export const RETRY_DELAYS_MINUTES: readonly number[] = [1, 5, 15, 30, 60, 120, 240];

/** A retry run stops starting new attempts after this, to end within the function time limit. */
const RETRY_RUN_BUDGET_MS = 15_000;

const OUTBOX_PREFIX = 'outbox/';

export type ContactOutcome = 'sent' | 'queued';

/** The delay before the next attempt, after `attempts` failed ones (at least 1). */
export function retryDelayMs(attempts: number): number {
  const index = Math.min(Math.max(attempts, 1), RETRY_DELAYS_MINUTES.length) - 1;
  return (RETRY_DELAYS_MINUTES[index] ?? 240) * 60_000;
}

/** SMTP settings, or null when mail is not configured (then the endpoint answers 503). */
export function mailSettings(config: Config): MailSettings | null {
  if (!config.SMTP_URL || !config.CONTACT_TO || !config.CONTACT_FROM) return null;
  return { smtpUrl: config.SMTP_URL, from: config.CONTACT_FROM, to: config.CONTACT_TO };
}

/**
 * 503 `{"error":"contact unavailable","mailto":"mailto:…"}`. The link is CONTACT_MAILTO; without
 * it the member is left out rather than exposing the private CONTACT_TO.
 */
export function contactUnavailable(config: Config, retryAfterSeconds?: number): HttpError {
  return new HttpError(503, 'contact unavailable', {
    details: config.CONTACT_MAILTO ? { mailto: `mailto:${config.CONTACT_MAILTO}` } : {},
    headers: retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  });
}

/** `<id@host>`, the RFC 5322 msg-id of a message: unique per message, the same on every retry. */
export function messageIdFor(id: string, siteUrl: string): string {
  return `<${id}@${new URL(siteUrl).hostname}>`;
}

/** Validates a parsed body; 400 with `issues` (field and problem, never the input) otherwise. */
export function parseContactRequest(value: unknown): { name: string; email: string; message: string; website: string } {
  const result = ContactRequestSchema.safeParse(value);
  if (!result.success) {
    throw new BadRequestError(
      'invalid contact message',
      result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const { name, email, message, website } = result.data;
  return { name, email, message, website: website ?? '' };
}

/**
 * Takes one valid message: 503 when mail is not configured, 429 past the rate limit, then into
 * the outbox and one attempt to send it. 'sent' once the SMTP server accepted it, 'queued' when it
 * is stored for the retry job. A filled honeypot answers 'sent' and nothing is kept or sent.
 */
export async function submitContactMessage(
  input: { name: string; email: string; message: string; website: string },
  options: { client: string; now?: number },
): Promise<ContactOutcome> {
  const now = options.now ?? Date.now();
  const config = getConfig();
  const settings = mailSettings(config);
  if (!settings) throw contactUnavailable(config);

  // Honeypot submissions count too, so a bot sees exactly what a person would, 429 included.
  await countTowardsRateLimit(options.client, now, config);
  if (input.website.trim() !== '') {
    console.info('contact: honeypot field filled; answered as sent, nothing sent');
    return 'sent';
  }

  const id = randomUUID();
  const record: OutboxMessage = {
    id,
    messageId: messageIdFor(id, config.SITE_URL),
    receivedAt: now,
    name: input.name,
    email: input.email,
    message: input.message,
    attempts: 0,
    // Claimed by this request while it makes the first attempt; the retry job leaves it alone.
    nextAttemptAt: now + CLAIM_MS,
  };
  const key = outboxKey(record);
  let stored = true;
  try {
    await writeRecord('contact', key, OutboxMessageSchema, record);
  } catch (error) {
    stored = false;
    console.error(`contact: message ${id} could not be stored in the outbox (${errorCodeOf(error)}); sending directly`);
  }

  try {
    await sendContactMail(settings, mailOf(record, config.SITE_URL), AbortSignal.timeout(DIRECT_SEND_TIMEOUT_MS));
  } catch (error) {
    if (!stored) {
      // Neither kept nor sent: the visitor must not be told it will arrive.
      console.error(`contact: message ${id} neither stored nor sent (${errorCodeOf(error)}); answered 503`);
      throw contactUnavailable(config, 300);
    }
    await reschedule(key, record, now, error);
    return 'queued';
  }
  console.info(`contact: message ${id} sent`);
  if (stored) await forget(key, id);
  return 'sent';
}

/** What a retry run did. */
export interface DeliveryReport {
  delivered: number;
  failed: number;
  /** Still in the outbox, not yet due (or claimed by someone else, or past this run's budget). */
  waiting: number;
  /** When the earliest message still in the outbox is due again (Unix ms), if known. */
  nextAttemptAt?: number;
}

/**
 * Sends every queued message that is due at `now`, oldest first, and reschedules those the server
 * still refuses. Each message is claimed with a conditional write before it is sent, so two runs
 * at once (or a run and the request that queued it) never both send it. The scheduled function
 * `contact-retry` calls this; it is a plain function so it can also be run by hand.
 */
export async function deliverQueuedMessages(now: number = Date.now()): Promise<DeliveryReport> {
  const config = getConfig();
  const settings = mailSettings(config);
  const entries = await listEntries('contact', OUTBOX_PREFIX);
  const report: DeliveryReport = { delivered: 0, failed: 0, waiting: 0 };
  const dueAt = (at: number) => {
    report.nextAttemptAt = Math.min(report.nextAttemptAt ?? at, at);
  };
  if (!settings) {
    report.waiting = entries.length;
    if (entries.length > 0) console.warn(`contact: ${entries.length} queued message(s) wait for SMTP_URL to be set`);
    return report;
  }
  const startedAt = performance.now();
  for (const { key, etag } of entries) {
    if (performance.now() - startedAt > RETRY_RUN_BUDGET_MS) {
      report.waiting += 1;
      continue;
    }
    const record = await readRecord('contact', key, OutboxMessageSchema);
    if (!record) continue;
    if (record.nextAttemptAt > now) {
      report.waiting += 1;
      dueAt(record.nextAttemptAt);
      continue;
    }
    const claim = { ...record, nextAttemptAt: now + CLAIM_MS };
    if (!(await replaceRecordIfUnchanged('contact', key, OutboxMessageSchema, claim, etag))) {
      report.waiting += 1;
      continue;
    }
    try {
      await sendContactMail(settings, mailOf(record, config.SITE_URL), AbortSignal.timeout(DIRECT_SEND_TIMEOUT_MS));
    } catch (error) {
      report.failed += 1;
      dueAt(await reschedule(key, claim, now, error));
      continue;
    }
    report.delivered += 1;
    console.info(`contact: queued message ${record.id} sent after ${record.attempts + 1} attempt(s)`);
    await forget(key, record.id);
  }
  return report;
}

async function countTowardsRateLimit(client: string, now: number, config: Config): Promise<void> {
  try {
    await hitRateLimit(CONTACT_RATE_LIMIT, client, now);
  } catch (error) {
    if (error instanceof TooManyRequestsError) throw error;
    // Blobs cannot count the message: letting it through would let a flood that slows Blobs down
    // past the limit. The visitor gets the mailto fallback instead; nothing was accepted.
    console.warn(`contact: rate limit could not be checked (${errorCodeOf(error)}); answered 503`);
    throw contactUnavailable(config, 60);
  }
}

function outboxKey(record: OutboxMessage): string {
  return `${OUTBOX_PREFIX}${timeKey(record.receivedAt)}-${record.id}`;
}

function mailOf(record: OutboxMessage, siteUrl: string): ContactMail {
  return {
    messageId: record.messageId,
    receivedAt: new Date(record.receivedAt),
    name: record.name,
    email: record.email,
    message: record.message,
    siteHost: new URL(siteUrl).hostname,
  };
}

/** Records a failed attempt. If even that write fails, the claim runs out and the job retries. */
async function reschedule(key: string, record: OutboxMessage, now: number, error: unknown): Promise<number> {
  const attempts = record.attempts + 1;
  const nextAttemptAt = now + retryDelayMs(attempts);
  const lastError = errorCodeOf(error);
  const next = `next attempt after ${new Date(nextAttemptAt).toISOString()}`;
  if (/ 5\d\d$/.test(lastError)) {
    // A 5xx reply will not go away by itself: the settings need a look. The message is kept.
    console.error(
      `contact: message ${record.id} refused by the SMTP server (attempt ${attempts}, ${lastError}); check SMTP_URL, CONTACT_FROM and CONTACT_TO; ${next}`,
    );
  } else {
    console.warn(`contact: message ${record.id} not sent (attempt ${attempts}, ${lastError}); ${next}`);
  }
  try {
    await writeRecord('contact', key, OutboxMessageSchema, { ...record, attempts, nextAttemptAt, lastError });
  } catch (writeError) {
    console.error(`contact: could not reschedule message ${record.id} (${errorCodeOf(writeError)})`);
  }
  return nextAttemptAt;
}

/** Removes a delivered message. If that fails it may be sent again later, with the same Message-ID. */
async function forget(key: string, id: string): Promise<void> {
  try {
    await deleteRecords('contact', [key]);
  } catch (error) {
    console.error(`contact: delivered message ${id} could not be removed from the outbox (${errorCodeOf(error)})`);
  }
}

/** A log-safe description of a failure: an error code or class name, never a message body or URL. */
function errorCodeOf(error: unknown): string {
  if (error instanceof MailDeliveryError) return error.code;
  if (error instanceof Error) return error.name;
  return 'unknown error';
}
