import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLimited, statuses } from '../../support/limit-counts.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { eventually, type ServedSite, startServedSite } from '../../support/served-site.ts';
import { type SmtpSink, startSmtpSink } from '../../support/smtp-sink.ts';

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
});
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await sink.close();
  await blobs.stop();
});

/** Request n goes to one instance or the other, alternately. */
const instance = (n: number) => sites[n % sites.length]?.url ?? '';

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
    const counts = statuses(responses);
    expectLimited(counts, [200, 202], 5, AT_ONCE);
    await eventually(() => sink.mails.length >= (counts[200] ?? 0));
    expect(sink.mails.length).toBeLessThanOrEqual((counts[200] ?? 0) + (counts[202] ?? 0));
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
    expectLimited(statuses(responses), [401], 10, AT_ONCE);
  });
});
