import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import contact from '../../../netlify/functions/contact.mts';
import location from '../../../netlify/functions/location.mts';
import { createContext } from '../../../server/functions.mts';
import { resetBlobsCooldown } from '../../../src/platform/store.ts';
import { expectLimited, statuses } from '../../support/limit-counts.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { eventually } from '../../support/served-site.ts';
import { type SmtpSink, startSmtpSink } from '../../support/smtp-sink.ts';

// The per-client limits under the load a spammer or a token guesser would send: many requests at
// the same moment, called in-process as the runtime calls the functions, on the local Blobs store
// (behind its gate) and a real SMTP server on loopback.

const SITE = 'https://site.example';
const TOKEN = 'owner-token-0123456789abcdef';
const AT_ONCE = 50;
const ENV = {
  SITE_URL: SITE,
  SMTP_URL: '',
  CONTACT_TO: 'owner@example.net',
  CONTACT_FROM: 'contact-form@site.example',
  LOCATION_TOKEN: TOKEN,
};

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let sink: SmtpSink;

beforeAll(async () => {
  blobs = await startLocalBlobs();
  sink = await startSmtpSink();
  Object.assign(process.env, ENV, { SMTP_URL: sink.url });
});
afterAll(async () => {
  for (const key of Object.keys(ENV)) delete process.env[key];
  await sink.close();
  await blobs.stop();
});

/** Work the functions handed over to run after their answers (as Netlify's `waitUntil`). */
const background: Promise<unknown>[] = [];
const contextFor = (url: URL, ip: string) =>
  createContext({ ip, url, params: {}, siteUrl: SITE, waitUntil: (promise) => background.push(promise) });

function sendMessage(ip: string, n: number): Promise<Response> {
  const url = new URL('/api/contact', SITE);
  const body = JSON.stringify({ name: 'Spammer', email: 'spam@example.com', message: `Offer number ${n}` });
  return contact(
    new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
    contextFor(url, ip),
  );
}

function postLocation(ip: string, token: string): Promise<Response> {
  const url = new URL('/api/location', SITE);
  const request = new Request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ lat: 48.8566, lon: 2.3522 }),
  });
  return location(request, contextFor(url, ip));
}

describe('the contact limit under concurrency', () => {
  it(`accepts and delivers 5 of ${AT_ONCE} messages sent at once by one client, and answers the rest 429`, async () => {
    sink.mails.length = 0;
    const responses = await Promise.all(Array.from({ length: AT_ONCE }, (_, n) => sendMessage('203.0.113.90', n)));
    const counts = statuses(responses);
    expectLimited(counts, [200, 202], 5, AT_ONCE);
    const retryAfter = responses.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    // Counted from the client's own oldest hit, made moments ago: close to the whole hour.
    for (const seconds of retryAfter) expect(seconds).toBeGreaterThan(3500);
    // Every message answered 200 reached the inbox, and nothing else did.
    await eventually(() => sink.mails.length >= (counts[200] ?? 0));
    expect(sink.mails.length).toBeLessThanOrEqual((counts[200] ?? 0) + (counts[202] ?? 0));
  });

  it(`accepts 5 of ${AT_ONCE} messages sent at once from addresses all over one IPv6 /64`, async () => {
    const responses = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, n) => sendMessage(`2001:db8:5:6:${n.toString(16)}::1`, n)),
    );
    expectLimited(statuses(responses), [200, 202], 5, AT_ONCE);
  });
});

describe('the location failure limit under concurrency', () => {
  it(`evaluates only 10 of ${AT_ONCE} guesses sent at once by one client, and answers the rest 429`, async () => {
    const responses = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, n) => postLocation('203.0.113.91', `wrong-token-${n}-0123456789`)),
    );
    const evaluated = expectLimited(statuses(responses), [401], 10, AT_ONCE);
    // Over the limit, even the right token is refused, once the burst's work after its answers is
    // done. On a loaded machine the local store may have missed a deadline in the burst: it then
    // answers 503 (unavailable, nothing written) until its cool-down ends, so each try starts after it.
    await Promise.allSettled(background);
    let status = 503;
    for (let tries = 0; status === 503 && tries < 5; tries++) {
      resetBlobsCooldown();
      status = (await postLocation('203.0.113.91', TOKEN)).status;
    }
    // A guess answered 503 was not counted: with fewer than 10 counted, the owner may still get in.
    if (evaluated === 10) expect(status).toBe(429);
    else expect([200, 429]).toContain(status);
  });

  it('lets a right guess hidden among concurrent wrong ones through only if it is evaluated, and never more than 10 wrong ones', async () => {
    const tokens = Array.from({ length: AT_ONCE }, (_, n) => (n === 25 ? TOKEN : `wrong-token-${n}-0123456789`));
    const responses = await Promise.all(tokens.map((token) => postLocation('203.0.113.92', token)));
    const counts = statuses(responses);
    // The right guess gives its attempt back (the owner's successes cost none), so a wrong guess
    // arriving after it may take that attempt: at most 10 failures, and at most one success.
    expect(counts[401] ?? 0).toBeLessThanOrEqual(10);
    expect(counts[200] ?? 0).toBeLessThanOrEqual(1);
    expect((counts[429] ?? 0) + (counts[503] ?? 0)).toBeGreaterThanOrEqual(AT_ONCE - 11);
  });

  it("gives the owner's own successful requests back, so 30 of them at once cost no attempts", async () => {
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => postLocation('203.0.113.93', TOKEN)));
      const counts = statuses(responses);
      expect((counts[200] ?? 0) + (counts[503] ?? 0)).toBe(10);
      if (!counts[503]) expect(counts[200]).toBe(10);
    }
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, n) => postLocation('203.0.113.93', `wrong-token-${n}-0123456789`)),
    );
    const counts = statuses(guesses);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(10);
    if (!counts[503]) expect(counts).toEqual({ 401: 10, 429: 2 });
  });
});
