import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalBlobs } from '../support/local-blobs.ts';
import { eventually, type ServedSite, startServedSite } from '../support/served-site.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';

// Two instances at once, as Netlify runs them: two server processes (each with its own memory)
// sharing one Blobs store through its gate, every request from the same client (127.0.0.1).

const TOKEN = 'owner-token-0123456789abcdef';
const AT_ONCE = 50;

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let sink: SmtpSink;
let sites: ServedSite[] = [];

beforeAll(async () => {
  blobs = await startLocalBlobs();
  sink = await startSmtpSink();
  const env = {
    NETLIFY_BLOBS_CONTEXT: blobs.context,
    SMTP_URL: sink.url,
    CONTACT_TO: 'owner@example.net',
    CONTACT_FROM: 'contact-form@site.example',
    LOCATION_TOKEN: TOKEN,
  };
  sites = await Promise.all([startServedSite({ env }), startServedSite({ env })]);
}, 60_000);
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await sink.close();
  await blobs.stop();
});

/** Request n goes to one instance or the other, alternately. */
const instance = (n: number) => sites[n % sites.length]?.url ?? '';

const statuses = (responses: Response[]) =>
  responses.reduce<Record<number, number>>((counts, { status }) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

describe('limits shared by two server processes', () => {
  it(`accepts and delivers 5 of ${AT_ONCE} contact messages sent at once to either instance`, async () => {
    const responses = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, n) =>
        fetch(`${instance(n)}/api/contact`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Spammer', email: 'spam@example.com', message: `Offer number ${n}` }),
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 5, 429: AT_ONCE - 5 });
    await eventually(() => sink.mails.length >= 5);
    expect(sink.mails).toHaveLength(5);
  });

  it(`evaluates only 10 of ${AT_ONCE} location guesses sent at once to either instance`, async () => {
    const responses = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, n) =>
        fetch(`${instance(n)}/api/location`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer wrong-token-${n}-0123456789` },
          body: JSON.stringify({ lat: 48.8566, lon: 2.3522 }),
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 401: 10, 429: AT_ONCE - 10 });
  });
});
