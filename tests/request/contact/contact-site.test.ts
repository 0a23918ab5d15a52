import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SITE_URL, eventually, type ServedSite, startServedSite } from '../../support/served-site.ts';
import { type SmtpSink, startSmtpSink } from '../../support/smtp-sink.ts';

// The contact form through the real local runtime (`npm run serve`): routing by the functions'
// own config, the Astro 405 route, and the retry job run by the runtime's own scheduler.

// Not the origin the test's requests reach (127.0.0.1:<port>), so CORS answers are told apart.
const SITE_URL = BUILT_SITE_URL;
const SMTP_AUTH = { user: 'site', pass: 'served-site-smtp-secret' };
const BODY_TEXT = 'A message body that must never appear in a log';

let sink: SmtpSink;
let site: ServedSite;
let unconfigured: ServedSite;

beforeAll(async () => {
  sink = await startSmtpSink({ auth: SMTP_AUTH });
  [site, unconfigured] = await Promise.all([
    startServedSite({
      clock: true,
      env: {
        SITE_URL,
        SMTP_URL: sink.url,
        CONTACT_TO: 'owner@example.net',
        CONTACT_FROM: 'contact-form@site.example',
        CONTACT_MAILTO: 'hello@site.example',
      },
    }),
    startServedSite({ env: { SITE_URL, CONTACT_MAILTO: 'hello@site.example' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([site?.stop(), unconfigured?.stop()]);
  await sink?.close();
});

const message = { name: 'Ada Lovelace', email: 'ada@example.com', message: BODY_TEXT };
const postJson = (base: string, body: unknown) =>
  fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
const postForm = (base: string, fields: Record<string, string>) =>
  fetch(`${base}/api/contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      Origin: base,
      Referer: `${base}/contact/`,
    },
    body: new URLSearchParams(fields).toString(),
  });

describe('POST /api/contact on the served site', () => {
  it('sends a JSON message: 200 sent, and the mail reaches the SMTP server', async () => {
    const before = sink.mails.length;
    const response = await postJson(site.url, message);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'sent' });
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE_URL);
    expect(sink.mails.slice(before).map((mail) => mail.parsed.replyTo?.value)).toEqual([
      [{ address: 'ada@example.com', name: 'Ada Lovelace' }],
    ]);
  });

  it('sends a plain HTML form and redirects back to the page with 303', async () => {
    const response = await postForm(site.url, { ...message, website: '' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${site.url}/contact/?contact=sent`);
  });

  it('answers the CORS preflight of the site origin', async () => {
    const response = await fetch(`${site.url}/api/contact`, {
      method: 'OPTIONS',
      headers: {
        Origin: SITE_URL,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE_URL);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('answers the preflight and the POST at /api/contact/ as at /api/contact: the site serves both spellings', async () => {
    const preflight = await fetch(`${site.url}/api/contact/`, {
      method: 'OPTIONS',
      headers: { Origin: SITE_URL, 'Access-Control-Request-Method': 'POST' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, SITE_URL]);
    // An invalid message, so that nothing counts towards the limit: the function's 400, not a 405.
    const post = await fetch(`${site.url}/api/contact/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect([post.status, (await post.json()).error]).toEqual([400, 'invalid contact message']);
  });

  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow: POST, OPTIONS', async (method) => {
    const response = await fetch(`${site.url}/api/contact`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    if (method !== 'HEAD') expect(await response.json()).toEqual({ error: 'method not allowed' });
  });

  it('answers 503 with the mailto fallback where mail is not configured, as JSON and as a page', async () => {
    const json = await postJson(unconfigured.url, message);
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ error: 'contact unavailable', mailto: 'mailto:hello@site.example' });
    const form = await postForm(unconfigured.url, message);
    expect(form.status).toBe(503);
    expect(form.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await form.text()).toContain('<a href="mailto:hello@site.example">hello@site.example</a>');
  });

  it('queues a message while the SMTP server is down (202) and its own scheduler delivers it once it is back', async () => {
    const port = sink.port;
    await sink.close();
    const response = await postJson(site.url, { ...message, name: 'Queued Visitor' });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'queued' });

    sink = await startSmtpSink({ auth: SMTP_AUTH, port });
    // The retry job runs every 5 minutes (cron); move the server's clock past the next run. The
    // scheduler rechecks its timer at least every 30 s, so the run follows within that.
    await site.advanceClock(6 * 60_000);
    await eventually(() => sink.mails.length > 0, 45_000);
    expect(sink.mails.map((mail) => mail.parsed.replyTo?.value)).toEqual([
      [{ address: 'ada@example.com', name: 'Queued Visitor' }],
    ]);
    expect(sink.mails[0]?.rcptTo).toEqual(['owner@example.net']);
  });

  it('never writes the message body or the SMTP password to its log', () => {
    expect(site.output()).toContain('contact: message');
    expect(site.output()).not.toContain(BODY_TEXT);
    expect(site.output()).not.toContain(SMTP_AUTH.pass);
    expect(site.output()).not.toContain('ada@example.com');
  });
});
