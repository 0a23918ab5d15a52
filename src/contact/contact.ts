import { randomUUID } from 'node:crypto';
import { type Config, getConfig } from '../platform/config.ts';
import { HttpError, serviceUnavailable } from '../platform/errors.ts';
import { hitRateLimit, type RateLimit } from '../platform/rate-limit.ts';
import { validBody } from '../platform/request-body.ts';
import {
  deleteRecords,
  listEntries,
  readRecord,
  replaceRecordIfUnchanged,
  timeKey,
  writeRecord,
} from '../platform/store.ts';
import { HOUR_MS, MINUTE_MS } from '../platform/time-units.ts';
import {
  type ContactOutcome,
  type ContactRequest,
  ContactRequestSchema,
  type OutboxMessage,
  OutboxMessageSchema,
} from './contact-schemas.ts';
import { MailDeliveryError, type MailSettings, sendContactMail } from './mailer.ts';

/** The contact form's rules, the outbox and its retry (docs/operations.md, "Contact form"). */

export const CONTACT_MAX_BODY_BYTES = 32 * 1024;
/** Only well-formed messages count, so a typo costs nothing. */
const CONTACT_RATE_LIMIT: RateLimit = { name: 'contact', limit: 5, windowMs: HOUR_MS };
/** How long a visitor waits for an attempt before being told "queued". */
const SEND_TIMEOUT_MS = 10_000;
/** While someone is sending a message, nobody else may start to (longer than any attempt lasts). */
const CLAIM_MS = 2 * MINUTE_MS;
/** Waits after the 1st, 2nd, … failed attempt; then every 240 minutes. */
const RETRY_DELAYS_MINUTES = [1, 5, 15, 30, 60, 120];
/** A retry run starts no new attempt after this, to end within the function's time limit. */
const RETRY_RUN_BUDGET_MS = 15_000;
const OUTBOX_PREFIX = 'outbox/';

/** The delay before the next attempt, after `attempts` (at least 1) failed ones. */
export function retryDelayMs(attempts: number): number {
  return (RETRY_DELAYS_MINUTES[attempts - 1] ?? 240) * MINUTE_MS;
}

function mailSettings(config: Config): MailSettings | null {
  if (!config.SMTP_URL || !config.CONTACT_TO || !config.CONTACT_FROM) return null;
  return { smtpUrl: config.SMTP_URL, from: config.CONTACT_FROM, to: config.CONTACT_TO };
}

/** 503 with CONTACT_MAILTO as the fallback; without it no `mailto`, never the private CONTACT_TO. */
function contactUnavailable(config: Config, retryAfterSeconds?: number): HttpError {
  const details = config.CONTACT_MAILTO ? { mailto: `mailto:${config.CONTACT_MAILTO}` } : {};
  return serviceUnavailable('contact unavailable', { details, retryAfterSeconds });
}

/** The RFC 5322 msg-id: unique per message, the same on every retry. */
export function messageIdFor(id: string, siteUrl: string): string {
  return `<${id}@${new URL(siteUrl).hostname}>`;
}

/** 400 with `issues` (field and problem, never the input) unless the body is a valid message. */
export function parseContactRequest(value: unknown): ContactRequest {
  const { name, email, message, website } = validBody(ContactRequestSchema, value, 'invalid contact message');
  return { name, email, message, website: website ?? '' };
}

/**
 * 503 when mail is not configured, 429 past the limit, else into the outbox and one attempt: 'sent'
 * once the SMTP server accepted it, 'queued' when the retry job will. A filled honeypot: 'sent', nothing kept.
 */
export async function submitContactMessage(
  { website, ...fields }: ContactRequest,
  options: { client: string; now?: number },
): Promise<ContactOutcome> {
  const now = options.now ?? Date.now();
  const config = getConfig();
  const settings = mailSettings(config);
  if (!settings) throw contactUnavailable(config);

  // Honeypot submissions count too, so a bot sees exactly what a person would, 429 included.
  try {
    await hitRateLimit(CONTACT_RATE_LIMIT, options.client, now);
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) throw error;
    // Uncounted messages would let a flood that slows Blobs down past the limit: mailto instead.
    console.warn(`contact: rate limit could not be checked (${errorCodeOf(error)}); answered 503`);
    throw contactUnavailable(config, 60);
  }
  if (website.trim() !== '') {
    console.info('contact: honeypot field filled; answered as sent, nothing sent');
    return 'sent';
  }

  const id = randomUUID();
  const record: OutboxMessage = {
    ...fields,
    id,
    messageId: messageIdFor(id, config.SITE_URL),
    receivedAt: now,
    attempts: 0,
    // Claimed by this request during the first attempt; the retry job leaves it alone.
    nextAttemptAt: now + CLAIM_MS,
  };
  const key = `${OUTBOX_PREFIX}${timeKey(now)}-${id}`;
  let stored = true;
  try {
    await writeRecord('contact', key, OutboxMessageSchema, record);
  } catch (error) {
    stored = false;
    console.error(`contact: message ${id} could not be stored in the outbox (${errorCodeOf(error)}); sending directly`);
  }
  try {
    await send(settings, record, config.SITE_URL);
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

/** What a retry run did; `waiting` are not due yet, claimed elsewhere, or past this run's budget. */
export interface DeliveryReport {
  delivered: number;
  failed: number;
  waiting: number;
  /** When the earliest message still in the outbox is due again, if known. */
  nextAttemptAt?: number;
}

/**
 * Sends every queued message due at `now`, oldest first, and reschedules those still refused. A
 * conditional write claims each before it is sent, so two senders never both send it.
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
      await send(settings, record, config.SITE_URL);
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

function send(settings: MailSettings, record: OutboxMessage, siteUrl: string): Promise<void> {
  const mail = { ...record, siteHost: new URL(siteUrl).hostname };
  return sendContactMail(settings, mail, AbortSignal.timeout(SEND_TIMEOUT_MS));
}

/** Records a failed attempt; if that write fails, the claim runs out and the job retries anyway. */
async function reschedule(key: string, record: OutboxMessage, now: number, error: unknown): Promise<number> {
  const attempts = record.attempts + 1;
  const nextAttemptAt = now + retryDelayMs(attempts);
  const lastError = errorCodeOf(error);
  // A 5xx reply will not go away by itself: the settings need a look. The message is kept.
  const refused = / 5\d\d$/.test(lastError);
  const hint = refused ? '; check SMTP_URL, CONTACT_FROM and CONTACT_TO' : '';
  (refused ? console.error : console.warn)(
    `contact: message ${record.id} ${refused ? 'refused by the SMTP server' : 'not sent'} (attempt ${attempts}, ${lastError})${hint}; next attempt after ${new Date(nextAttemptAt).toISOString()}`,
  );
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
  return error instanceof Error ? error.name : 'unknown error';
}
