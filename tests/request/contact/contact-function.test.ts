import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import contact from '../../../netlify/functions/contact.mts';
import contactRetry, { config as retryConfig } from '../../../netlify/functions/contact-retry.mts';
import { freePort } from '../../../scripts/fake-http-server.mts';
import { createContext } from '../../../server/functions.mts';
import { deliverQueuedMessages } from '../../../src/contact/contact.ts';
import { type OutboxMessage, OutboxMessageSchema } from '../../../src/contact/contact-schemas.ts';
import {
  deleteRecords,
  listKeys,
  readRecord,
  resetBlobsCooldown,
  timeKey,
  writeRecord,
} from '../../../src/platform/store.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../../support/smtp-sink.ts';

// POST /api/contact called in-process: real Requests, a real Blobs server, a real SMTP server on loopback.

const SITE = 'https://site.example';
const OWNER = 'owner@example.net';
const FROM = 'contact-form@site.example';
const MAILTO = 'hello@site.example';
const SMTP_AUTH = { user: 'contact-form', pass: 'Sm7p-pa55word-never-logged' };
const MESSAGE_ID = /^<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@site\.example>$/;
const ENV_KEYS = ['SMTP_URL', 'CONTACT_TO', 'CONTACT_FROM', 'CONTACT_MAILTO', 'SITE_URL'] as const;

const visitor = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello!\nI enjoyed your article on engines.',
};

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let sink: SmtpSink;
let clients = 0;
/** Each test posts as its own client, so the rate limit of one never spills into another. */
const freshClient = () => `198.51.100.${++clients}`;

beforeAll(async () => {
  blobs = await startLocalBlobs();
  sink = await startSmtpSink({ auth: SMTP_AUTH });
});
afterAll(async () => {
  await sink.close();
  await blobs.stop();
});
beforeEach(async () => {
  Object.assign(process.env, {
    SMTP_URL: sink.url,
    CONTACT_TO: OWNER,
    CONTACT_FROM: FROM,
    CONTACT_MAILTO: MAILTO,
    SITE_URL: SITE,
  });
  sink.mails.length = 0;
  sink.setFailing(false);
  await deleteRecords('contact', await listKeys('contact', 'outbox/'));
});
afterEach(() => {
  for (const key of ENV_KEYS) delete process.env[key];
  vi.restoreAllMocks();
});

function call(init: RequestInit & { path?: string } = {}, client = freshClient()): Promise<Response> {
  const url = new URL(init.path ?? '/api/contact', SITE);
  const request = new Request(url, { method: 'POST', ...init });
  return contact(request, createContext({ ip: client, url, params: {}, siteUrl: SITE, waitUntil: () => {} }));
}

const postJson = (body: unknown, headers: Record<string, string> = {}, client?: string) =>
  call({ body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } }, client);

const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}, client?: string) =>
  call(
    {
      body: new URLSearchParams(fields).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    },
    client,
  );

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function outbox(): Promise<OutboxMessage[]> {
  const keys = await listKeys('contact', 'outbox/');
  const records = await Promise.all(keys.map((key) => readRecord('contact', key, OutboxMessageSchema)));
  return records.filter((record) => record !== null);
}

const headerNames = (mail: ReceivedMail) => mail.parsed.headerLines.map((line) => line.key).sort();
const EXPECTED_HEADERS = [
  'content-transfer-encoding',
  'content-type',
  'date',
  'from',
  'message-id',
  'mime-version',
  'reply-to',
  'subject',
  'to',
];

describe('POST /api/contact delivers to the owner', () => {
  it('sends a JSON message at once: 200 sent, From the site to the owner, Reply-To the visitor, plain text', async () => {
    const response = await postJson(visitor, { Origin: SITE });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'sent' });
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': SITE,
      vary: 'Origin',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
    });

    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails as [ReceivedMail];
    expect(mail.mailFrom).toBe(FROM);
    expect(mail.rcptTo).toEqual([OWNER]);
    expect(mail.parsed.from?.value).toEqual([{ address: FROM, name: '' }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: OWNER, name: '' }] });
    expect(mail.parsed.replyTo?.value).toEqual([{ address: 'ada@example.com', name: 'Ada Lovelace' }]);
    expect(mail.parsed.subject).toBe('Contact form on site.example: message from Ada Lovelace');
    expect(mail.parsed.messageId).toMatch(MESSAGE_ID);
    expect(mail.parsed.headers.get('content-type')).toMatchObject({
      value: 'text/plain',
      params: { charset: 'utf-8' },
    });
    expect(mail.parsed.html).toBe(false);
    expect(mail.parsed.attachments).toEqual([]);
    expect(mail.parsed.text).toMatch(
      /^Name: Ada Lovelace\nE-mail: ada@example\.com\nReceived: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n\nHello!\nI enjoyed your article on engines\.\n$/,
    );
    expect(headerNames(mail)).toEqual(EXPECTED_HEADERS);
    // Delivered messages leave the outbox.
    expect(await outbox()).toEqual([]);
  });

  it('reads a plain HTML form post (UTF-8, url-encoded) and sends the browser back to the page with 303', async () => {
    const response = await postForm(
      { name: 'Zoë Ünal', email: 'zoe@example.org', message: 'Grüße aus Köln 🌧', website: '' },
      { Accept: BROWSER_ACCEPT, Origin: SITE, Referer: `${SITE}/contact/?lang=de#form` },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${SITE}/contact/?lang=de&contact=sent`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0]?.parsed.replyTo?.value).toEqual([{ address: 'zoe@example.org', name: 'Zoë Ünal' }]);
    expect(sink.mails[0]?.parsed.subject).toBe('Contact form on site.example: message from Zoë Ünal');
    expect(sink.mails[0]?.parsed.text).toContain('\n\nGrüße aus Köln 🌧\n');
  });

  it('answers a form post without a Referer from the site with a small page of its own', async () => {
    const response = await postForm(visitor, { Accept: BROWSER_ACCEPT, Referer: 'https://elsewhere.example/' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const page = await response.text();
    expect(page).toContain('<h1>Message sent</h1>');
    expect(page).toContain(`<a href="${SITE}/">Back to the site</a>`);
    expect(sink.mails).toHaveLength(1);
  });

  it('answers a form post that asks for JSON with JSON', async () => {
    const response = await postForm(visitor, { Accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'sent' });
  });
});

describe('POST /api/contact never lets a header be injected', () => {
  it.each([
    ['name', 'a CRLF and a Bcc header', 'Ada\r\nBcc: eve@evil.example'],
    ['name', 'a bare LF and a Cc header', 'Ada\nCc: eve@evil.example'],
    ['name', 'a header block ending the headers', 'Ada\r\n\r\nInjected body'],
    ['email', 'a CRLF and a Bcc header', 'ada@example.com\r\nBcc: eve@evil.example'],
    ['email', 'a second address', 'ada@example.com, eve@evil.example'],
    ['email', 'a display name with another address', 'Eve <eve@evil.example>'],
    ['email', 'a source route', '@evil.example:ada@example.com'],
  ])('refuses a %s with %s (400, nothing sent)', async (field, _case, value) => {
    const response = await postJson({ ...visitor, [field]: value });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid contact message', issues: [{ path: field }] });
    expect(sink.mails).toHaveLength(0);
  });

  it.each([
    ['name', 'address syntax', { name: 'Eve <eve@evil.example>, "Mallory" <m@evil.example>;' }],
    ['name', 'an encoded word that decodes to CRLF', { name: '=?UTF-8?Q?Ada=0D=0ABcc:_eve@evil.example?=' }],
    ['name', 'a very long line', { name: 'x'.repeat(100) }],
    [
      'message',
      'CRLF header lines and an empty line',
      { message: 'Hi\r\nBcc: eve@evil.example\r\n\r\nTo: eve@evil.example' },
    ],
    [
      'message',
      'SMTP commands after a lone dot (smuggling)',
      {
        message:
          'Hi\r\n.\r\nMAIL FROM:<eve@evil.example>\r\nRCPT TO:<eve@evil.example>\r\nDATA\r\nSubject: x\r\n\r\nspam\r\n.\r\n',
      },
    ],
    ['message', 'a bare CR then a dot', { message: 'Hi\r.\rBcc: eve@evil.example' }],
  ])('sends a %s with %s as text, with exactly the usual headers', async (_field, _case, fields) => {
    const input = { ...visitor, ...fields };
    const response = await postJson(input);
    expect(response.status).toBe(200);
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails as [ReceivedMail];
    expect(mail.rcptTo).toEqual([OWNER]);
    expect(headerNames(mail)).toEqual(EXPECTED_HEADERS);
    // A typed `=?` is shown as `= ?`, so that it cannot read as an encoded word.
    const shownName = input.name.replaceAll('=?', '= ?');
    expect(mail.parsed.replyTo?.value).toEqual([{ address: visitor.email, name: shownName }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: OWNER }] });
    expect(mail.parsed.subject).toBe(`Contact form on site.example: message from ${shownName}`);
    // The message arrives as it was typed, with line breaks as LF and surrounding space trimmed.
    expect(mail.parsed.text).toContain(`\n\n${input.message.replace(/\r\n?/g, '\n').trim()}\n`);
  });
});

describe('POST /api/contact against abuse', () => {
  it('answers a filled honeypot exactly like a sent message, and sends and keeps nothing', async () => {
    const genuine = await postJson(visitor);
    sink.mails.length = 0;
    const bot = await postJson({ ...visitor, website: 'https://cheap-pills.example' });
    expect(bot.status).toBe(genuine.status);
    expect(await bot.text()).toBe(await genuine.text());
    expect([...bot.headers]).toEqual([...genuine.headers]);
    expect(sink.mails).toHaveLength(0);
    expect(await outbox()).toEqual([]);
  });

  it('answers a filled honeypot in a form like a sent form too', async () => {
    const response = await postForm(
      { ...visitor, website: 'spam' },
      { Accept: BROWSER_ACCEPT, Referer: `${SITE}/contact/` },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${SITE}/contact/?contact=sent`);
    expect(sink.mails).toHaveLength(0);
  });

  it('takes 5 messages per client per hour, then 429 with Retry-After; invalid submissions do not count', async () => {
    const client = freshClient();
    for (let i = 0; i < 3; i++) expect((await postJson({ ...visitor, email: 'typo' }, {}, client)).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await postJson(visitor, {}, client)).status).toBe(200);
    const refused = await postJson(visitor, {}, client);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'too many requests' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(sink.mails).toHaveLength(5);
    // Another client is counted apart.
    expect((await postJson(visitor)).status).toBe(200);
  });

  it('counts honeypot submissions too, so a bot meets the same limit a person does', async () => {
    const client = freshClient();
    for (let i = 0; i < 5; i++) expect((await postJson({ ...visitor, website: 'x' }, {}, client)).status).toBe(200);
    expect((await postJson({ ...visitor, website: 'x' }, {}, client)).status).toBe(429);
    expect((await postJson(visitor, {}, client)).status).toBe(429);
    expect(sink.mails).toHaveLength(0);
  });

  it('counts all addresses of one IPv6 /64 as one client', async () => {
    for (let i = 1; i <= 5; i++) expect((await postJson(visitor, {}, `2001:db8:77:1::${i}`)).status).toBe(200);
    expect((await postJson(visitor, {}, '2001:db8:77:1:abcd::9')).status).toBe(429);
    expect((await postJson(visitor, {}, '2001:db8:77:2::1')).status).toBe(200);
  });

  it('shows a person who is over the limit a page saying how long to wait', async () => {
    const client = freshClient();
    for (let i = 0; i < 5; i++) await postJson(visitor, {}, client);
    const response = await postForm(visitor, { Accept: BROWSER_ACCEPT, Referer: `${SITE}/contact/` }, client);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await response.text()).toContain('Please wait 60 minutes before sending another message.');
  });

  it.each([
    ['a body over 32 KiB', 'application/json', JSON.stringify({ ...visitor, message: 'x'.repeat(33 * 1024) }), 413],
    ['a form over 32 KiB', 'application/x-www-form-urlencoded', `message=${'x'.repeat(33 * 1024)}`, 413],
    ['text/plain', 'text/plain', JSON.stringify(visitor), 415],
    ['multipart form data', 'multipart/form-data; boundary=x', '--x--', 415],
    ['JSON that does not parse', 'application/json', '{"name":', 400],
  ])('refuses %s', async (_case, contentType, body, status) => {
    const response = await call({ body, headers: { 'Content-Type': contentType, Accept: 'application/json' } });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect(sink.mails).toHaveLength(0);
  });

  it('shows a form that is too large a page with status 413', async () => {
    const response = await postForm({ ...visitor, message: 'x'.repeat(33 * 1024) }, { Accept: BROWSER_ACCEPT });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('shows a person the invalid fields on a page, with the status 400', async () => {
    const response = await postForm(
      { name: '', email: 'not-an-address', message: 'Hi' },
      { Accept: BROWSER_ACCEPT, Referer: `${SITE}/contact/` },
    );
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('<li>Name: must be 1 to 100 characters</li>');
    expect(page).toContain('<li>E-mail: must be a valid e-mail address</li>');
    expect(page).toContain(`<a href="${SITE}/contact/">Back to the form</a>`);
    expect(page).not.toContain('not-an-address');
  });
});

describe('POST /api/contact and CORS', () => {
  it('answers a preflight from the site with the CORS headers', async () => {
    const response = await call({
      method: 'OPTIONS',
      headers: {
        Origin: SITE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'access-control-allow-origin': SITE,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'Content-Type, Accept',
      'access-control-max-age': '86400',
      allow: 'POST, OPTIONS',
    });
  });

  it('answers a preflight from another origin without allowing it', async () => {
    const response = await call({
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['an opaque origin', 'null'],
    ['the site over http', 'http://site.example'],
  ])('refuses a post from %s with 403 and sends nothing', async (_case, origin) => {
    const json = await postJson(visitor, { Origin: origin });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ error: 'cross-site form posts are not accepted' });
    const form = await postForm(visitor, { Origin: origin, Accept: BROWSER_ACCEPT });
    expect(form.status).toBe(403);
    expect(form.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(sink.mails).toHaveLength(0);
  });
});

describe('POST /api/contact when mail is not configured or failing', () => {
  it('answers 503 with the mailto fallback when SMTP_URL is not set', async () => {
    delete process.env.SMTP_URL;
    const response = await postJson(visitor);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'contact unavailable', mailto: `mailto:${MAILTO}` });
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('leaves mailto out of the 503 when no CONTACT_MAILTO is set', async () => {
    delete process.env.SMTP_URL;
    delete process.env.CONTACT_MAILTO;
    const response = await postJson(visitor);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'contact unavailable' });
  });

  it('shows a form a 503 page with the mailto link', async () => {
    delete process.env.SMTP_URL;
    const response = await postForm(visitor, { Accept: BROWSER_ACCEPT });
    expect(response.status).toBe(503);
    expect(await response.text()).toContain(`<a href="mailto:${MAILTO}">${MAILTO}</a>`);
  });

  it('queues a message the SMTP server turns away (202), and the retry delivers it exactly once', async () => {
    sink.setFailing(true);
    const response = await postJson(visitor);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'queued' });
    expect(sink.mails).toHaveLength(0);

    const [queued, ...others] = await outbox();
    expect(others).toEqual([]);
    expect(queued).toMatchObject({ name: visitor.name, email: visitor.email, message: visitor.message, attempts: 1 });
    expect(queued?.lastError).toMatch(/421/);
    if (!queued) throw new Error('nothing queued');
    expect(queued.nextAttemptAt - queued.receivedAt).toBe(60_000);

    sink.setFailing(false);
    // Not yet due: nothing is tried.
    expect(await deliverQueuedMessages(queued.receivedAt + 30_000)).toEqual({
      delivered: 0,
      failed: 0,
      waiting: 1,
      nextAttemptAt: queued.nextAttemptAt,
    });
    expect(sink.mails).toHaveLength(0);
    // Due: delivered once, and gone from the outbox.
    expect(await deliverQueuedMessages(queued.nextAttemptAt)).toEqual({ delivered: 1, failed: 0, waiting: 0 });
    expect(await deliverQueuedMessages(queued.nextAttemptAt + 3_600_000)).toEqual({
      delivered: 0,
      failed: 0,
      waiting: 0,
    });
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails as [ReceivedMail];
    expect(mail.parsed.messageId).toBe(queued.messageId);
    expect(mail.parsed.date?.getTime()).toBe(Math.floor(queued.receivedAt / 1000) * 1000);
    expect(mail.parsed.replyTo?.value).toEqual([{ address: visitor.email, name: visitor.name }]);
    expect(mail.rcptTo).toEqual([OWNER]);
    expect(await outbox()).toEqual([]);
  });

  it('sends the same mail again, same Message-ID and Date, if a delivered message is ever retried', async () => {
    sink.setFailing(true);
    await postJson(visitor);
    sink.setFailing(false);
    const [queued] = await outbox();
    if (!queued) throw new Error('nothing queued');
    await deliverQueuedMessages(queued.nextAttemptAt);
    // As if the delete after delivery had been lost: the record comes back and is sent again.
    await writeRecord(
      'contact',
      (await listKeys('contact', 'outbox/'))[0] ?? `outbox/${queued.id}`,
      OutboxMessageSchema,
      queued,
    );
    await deliverQueuedMessages(queued.nextAttemptAt);
    expect(sink.mails).toHaveLength(2);
    const [first, second] = sink.mails as [ReceivedMail, ReceivedMail];
    expect(second.parsed.messageId).toBe(first.parsed.messageId);
    expect(second.parsed.headers.get('date')).toEqual(first.parsed.headers.get('date'));
    expect(second.parsed.text).toBe(first.parsed.text);
  });

  it('queues when nothing listens on the SMTP port, and backs off while the server stays down', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    expect((await postJson(visitor)).status).toBe(202);
    const [first] = await outbox();
    if (!first) throw new Error('nothing queued');
    // Connection refused: nodemailer's code for a socket error.
    expect(first).toMatchObject({ attempts: 1, lastError: 'ESOCKET' });

    const next = first.nextAttemptAt + 5 * 60_000;
    expect(await deliverQueuedMessages(first.nextAttemptAt)).toEqual({
      delivered: 0,
      failed: 1,
      waiting: 0,
      nextAttemptAt: next,
    });
    const [second] = await outbox();
    expect(second).toMatchObject({ attempts: 2, nextAttemptAt: first.nextAttemptAt + 5 * 60_000 });

    // Before the next attempt is due, a run leaves it alone.
    expect(await deliverQueuedMessages(first.nextAttemptAt + 60_000)).toEqual({
      delivered: 0,
      failed: 0,
      waiting: 1,
      nextAttemptAt: next,
    });
    expect((await outbox())[0]).toMatchObject({ attempts: 2 });

    await deliverQueuedMessages(first.nextAttemptAt + 5 * 60_000);
    expect((await outbox())[0]).toMatchObject({ attempts: 3, nextAttemptAt: first.nextAttemptAt + 20 * 60_000 });

    // The server comes back: the next due run delivers it.
    process.env.SMTP_URL = sink.url;
    expect(await deliverQueuedMessages(first.nextAttemptAt + 20 * 60_000)).toMatchObject({ delivered: 1 });
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0]?.parsed.messageId).toBe(first.messageId);
  });

  it('keeps queued messages while mail is unconfigured, and sends them once it is configured again', async () => {
    sink.setFailing(true);
    await postJson(visitor);
    sink.setFailing(false);
    const [queued] = await outbox();
    if (!queued) throw new Error('nothing queued');
    delete process.env.SMTP_URL;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await deliverQueuedMessages(queued.nextAttemptAt)).toEqual({ delivered: 0, failed: 0, waiting: 1 });
    process.env.SMTP_URL = sink.url;
    expect(await deliverQueuedMessages(queued.nextAttemptAt)).toEqual({ delivered: 1, failed: 0, waiting: 0 });
  });

  it('leaves alone a message someone else is sending right now', async () => {
    const now = Date.now();
    const claimed: OutboxMessage = {
      id: '3f2d8c1e-8a51-4c7b-9d2e-1f0a9b8c7d6e',
      messageId: '<3f2d8c1e-8a51-4c7b-9d2e-1f0a9b8c7d6e@site.example>',
      receivedAt: now,
      ...visitor,
      attempts: 0,
      nextAttemptAt: now + 120_000,
    };
    await writeRecord('contact', `outbox/${timeKey(now)}-${claimed.id}`, OutboxMessageSchema, claimed);
    expect(await deliverQueuedMessages(now + 60_000)).toEqual({
      delivered: 0,
      failed: 0,
      waiting: 1,
      nextAttemptAt: now + 120_000,
    });
    expect(sink.mails).toHaveLength(0);
  });

  it('rejects a wrong SMTP password as a failure (202), and logs neither the password, the address nor the message', async () => {
    const lines: string[] = [];
    for (const level of ['info', 'warn', 'error', 'log', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
    }
    process.env.SMTP_URL = sink.url.replace(encodeURIComponent(SMTP_AUTH.pass), 'Wr0ng-pa55word-never-logged');
    const response = await postJson({ ...visitor, message: 'secret-body-text' });
    expect(response.status).toBe(202);
    const [queued] = await outbox();
    expect(queued?.lastError).toMatch(/^EAUTH/);
    await deliverQueuedMessages((queued?.nextAttemptAt ?? 0) + 1);
    const log = lines.join('\n');
    expect(log).toMatch(/refused by the SMTP server \(attempt 1, EAUTH 535\); check SMTP_URL/);
    for (const secret of ['pa55word', 'secret-body-text', visitor.email, visitor.name, 'contact-form:']) {
      expect(log).not.toContain(secret);
    }
  });

  it('answers 503 with the mailto fallback, and sends nothing, when Blobs cannot count the message', async () => {
    const blobsContext = process.env.NETLIFY_BLOBS_CONTEXT;
    const port = await freePort();
    const broken = JSON.parse(Buffer.from(blobsContext ?? '', 'base64').toString()) as Record<string, string>;
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ ...broken, edgeURL: `http://127.0.0.1:${port}`, uncachedEdgeURL: `http://127.0.0.1:${port}` }),
    ).toString('base64');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const refused = await postJson(visitor);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ error: 'contact unavailable', mailto: `mailto:${MAILTO}` });
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(sink.mails).toHaveLength(0);
    } finally {
      process.env.NETLIFY_BLOBS_CONTEXT = blobsContext;
      // The limiter's parallel Blobs calls fail one after another; let the last one land before
      // the cool-down it starts is cleared for the next test.
      await new Promise((resolve) => setTimeout(resolve, 200));
      resetBlobsCooldown();
    }
  });
});

describe('the contact-retry scheduled function', () => {
  it('runs every 5 minutes on a five-field cron schedule, as Netlify accepts', () => {
    expect(retryConfig).toEqual({ schedule: '*/5 * * * *' });
  });

  it('delivers what is due when Netlify invokes it', async () => {
    sink.setFailing(true);
    await postJson(visitor);
    sink.setFailing(false);
    // The message is due a minute after it failed; the function uses the current time.
    const [queued] = await outbox();
    if (!queued) throw new Error('nothing queued');
    await writeRecord('contact', (await listKeys('contact', 'outbox/'))[0] ?? '', OutboxMessageSchema, {
      ...queued,
      nextAttemptAt: Date.now() - 1,
    });
    const response = await contactRetry();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ delivered: 1, failed: 0, waiting: 0 });
    expect(sink.mails).toHaveLength(1);
  });
});
