import { createECDH } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import alerts from '../../../netlify/functions/alerts.mts';
import { createContext } from '../../../server/functions.mts';
import { ALERTS_PER_PARK } from '../../../src/alerts/alerts.ts';
import { deliverPushes } from '../../../src/alerts/deliver-pushes.ts';
import { deleteRecords, listKeys, timeKey, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import type { ParkEvent } from '../../../src/wait-times/events/event-schemas.ts';
import { StoredScheduleSchema } from '../../../src/wait-times/hours/park-hours-schemas.ts';
import { dayBoundsOf, localDateOf } from '../../../src/wait-times/local-time.ts';
import { findPark } from '../../../src/wait-times/parks.ts';
import { type FakePushService, openPush, startFakePushService } from '../../support/fake-push-service.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';
import { type TestSubscriber, testSubscriber } from '../../support/push-receiver.ts';

// POST /api/alerts and DELETE /api/alerts/{id} in-process, Blobs on a local server, and the
// recorder's delivery to a fake push service on loopback that decrypts what it receives.

const SITE = 'https://site.example';
const SUBJECT = 'mailto:owner@site.example';
const ENV_KEYS = [
  'SITE_URL',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'PUSH_ALLOWED_ORIGINS',
] as const;
/** A park whose hours the test stores (closing in 3 hours), and one whose hours are unknown. */
const WITH_HOURS = 'epcot';
const WITHOUT_HOURS = 'magic-kingdom';
const RIDE = { id: 159, name: 'Test Track' };

const vapid = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
})();

let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
let push: FakePushService;
let clients = 0;
let subscriptions = 0;
const freshClient = () => `203.0.113.${++clients}`;
let closesAt = 0;

beforeAll(async () => {
  blobs = await startLocalBlobs();
  push = await startFakePushService();
  const park = findPark(WITH_HOURS);
  if (!park) throw new Error('no park');
  const now = Date.now();
  closesAt = now + 3 * 3600_000;
  const row = { date: localDateOf(now, park.timezone), type: 'OPERATING' as const, description: null };
  await writeRecord('wait-times', `hours/${WITH_HOURS}`, StoredScheduleSchema, {
    fetchedAt: now,
    rows: [{ ...row, opensAt: now - 6 * 3600_000, closesAt }],
  });
});
afterAll(async () => {
  await push.close();
  await blobs.stop();
});
beforeEach(async () => {
  Object.assign(process.env, {
    SITE_URL: SITE,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: SUBJECT,
    PUSH_ALLOWED_ORIGINS: push.origin,
  });
  push.received.length = 0;
  await deleteRecords('alerts', await listKeys('alerts', ''));
});
afterEach(() => {
  for (const key of ENV_KEYS) delete process.env[key];
});

function call(method: string, path: string, body?: string, client = freshClient()): Promise<Response> {
  const url = new URL(path, SITE);
  const id = /^\/api\/alerts\/([^/]+)/.exec(url.pathname)?.[1];
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const request = new Request(url, { method, headers, body: body ?? null });
  const params = id === undefined ? {} : { id };
  return alerts(request, createContext({ ip: client, url, params, siteUrl: SITE, waitUntil: () => {} }));
}

/** A browser's subscription on the fake service, and the body subscribing it. */
function subscriber(extra: Record<string, unknown> = {}) {
  const browser = testSubscriber();
  const endpoint = push.endpoint(`s${++subscriptions}`);
  const body = {
    subscription: { endpoint, expirationTime: null, keys: browser.keys },
    park: WITH_HOURS,
    ride: RIDE.id,
    on: 'reopened',
    ...extra,
  };
  return { browser, endpoint, body };
}
const subscribe = (body: unknown, client?: string) => call('POST', '/api/alerts', JSON.stringify(body), client);

const CreatedSchema = z.strictObject({ id: z.string().check(z.regex(/^[\w-]{22}$/)), expiresAt: z.int() });
async function created(response: Response) {
  expect(response.status).toBe(201);
  return z.parse(CreatedSchema, await response.json());
}

function event(overrides: Partial<ParkEvent> = {}): ParkEvent {
  const at = Date.now();
  return {
    id: `${WITH_HOURS}/ride-reopened/${RIDE.id}/${at}`,
    type: 'ride-reopened',
    park: WITH_HOURS,
    at,
    ride: RIDE,
    waitNow: 15,
    forecast: 20,
    downMinutes: 25,
    ...overrides,
  };
}

describe('POST /api/alerts', () => {
  it('keeps an alert until the park closes: 201 { id, expiresAt }, no-store, the base headers', async () => {
    const response = await subscribe(subscriber().body);
    const answer = await created(response);
    expect(answer.expiresAt).toBe(closesAt);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('link')).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it("ends at the end of the park's local day when its hours are unknown", async () => {
    const park = findPark(WITHOUT_HOURS);
    if (!park) throw new Error('no park');
    const answer = await created(await subscribe(subscriber({ park: WITHOUT_HOURS }).body));
    expect(answer.expiresAt).toBe(dayBoundsOf(localDateOf(Date.now(), park.timezone), park.timezone).endsAt);
  });

  it.each([
    ['a loopback address', 'http://127.0.0.1:9/push/x'],
    ['a loopback address over https', 'https://127.0.0.1/push/x'],
    ['a private address', 'https://10.0.0.5/push'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a known push service over http', 'http://fcm.googleapis.com/fcm/send/x'],
    ['a known push service on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['a look-alike host', 'https://fcm.googleapis.com.evil.example/fcm/send/x'],
    ['credentials in the URL', 'https://user:pass@web.push.apple.com/x'],
    ['not a URL', 'push me'],
  ])('refuses %s as the endpoint with 400 naming subscription.endpoint', async (_, endpoint) => {
    delete process.env.PUSH_ALLOWED_ORIGINS;
    const { body } = subscriber();
    const response = await subscribe({ ...body, subscription: { ...body.subscription, endpoint } });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { issues: { path: string }[] };
    expect(answer.issues.map((issue) => issue.path)).toEqual(['subscription.endpoint']);
    expect(await listKeys('alerts', '')).toEqual([]);
  });

  it('refuses the fake push service itself unless PUSH_ALLOWED_ORIGINS names it', async () => {
    const { body } = subscriber();
    delete process.env.PUSH_ALLOWED_ORIGINS;
    expect((await subscribe(body)).status).toBe(400);
    process.env.PUSH_ALLOWED_ORIGINS = `https://other.example, ${push.origin}`;
    expect((await subscribe(body)).status).toBe(201);
  });

  it.each([
    ['below missing with on "below"', { on: 'below' }, 'below'],
    ['an unknown park', { park: 'narnia' }, 'park'],
    ['a ride that is not a whole number', { ride: 'Test Track' }, 'ride'],
    ['an unknown kind', { on: 'sometime' }, 'on'],
    ['minutes out of range', { on: 'below', below: 600 }, 'below'],
    [
      'a short p256dh key',
      { subscription: { endpoint: 'x', keys: { p256dh: 'AAAA', auth: 'BTBZMqHH6r4Tts7J_aSIgg' } } },
      'subscription.keys.p256dh',
    ],
  ])('answers 400 naming the field for %s', async (_, change, path) => {
    const response = await subscribe({ ...subscriber().body, ...change });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: string; issues: { path: string }[] };
    expect(answer.error).toBe('invalid alert');
    expect(answer.issues.map((issue) => issue.path)).toContain(path);
  });

  it('answers 413 to a body over 4 KiB and 400 to JSON that does not parse', async () => {
    const big = { ...subscriber().body, padding: 'x'.repeat(5000) };
    expect((await subscribe(big)).status).toBe(413);
    expect((await call('POST', '/api/alerts', '{"subscription":')).status).toBe(400);
  });

  it('answers 429 with Retry-After past 20 alerts an hour from one client', async () => {
    const client = freshClient();
    for (let n = 0; n < 20; n++) expect((await subscribe(subscriber().body, client)).status).toBe(201);
    const refused = await subscribe(subscriber().body, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await subscribe(subscriber().body)).status).toBe(201);
  });

  it(`answers 429 once a park holds ${ALERTS_PER_PARK} live alerts, until the first expires`, async () => {
    const expiresAt = Date.now() + 600_000;
    const keys = Array.from(
      { length: ALERTS_PER_PARK },
      (_, n) => `subs/${WITHOUT_HOURS}/${timeKey(expiresAt + n)}-seed${n}`,
    );
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(keys.slice(start, start + 50).map((key) => writeRecord('alerts', key, z.object({}), {})));
    }
    const refused = await subscribe(subscriber({ park: WITHOUT_HOURS }).body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590);
    expect((await subscribe(subscriber().body)).status).toBe(201);
  });

  it('answers 503 saying so while VAPID is not configured, and keeps nothing', async () => {
    for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']) delete process.env[key];
    const response = await subscribe(subscriber().body);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/VAPID/);
    expect(await listKeys('alerts', '')).toEqual([]);
  });
});

describe('DELETE /api/alerts/{id}', () => {
  it('deletes an alert, endpoint and all: 204, then 404', async () => {
    const { id } = await created(await subscribe(subscriber().body));
    const response = await call('DELETE', `/api/alerts/${id}`);
    expect(response.status).toBe(204);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await listKeys('alerts', '')).toEqual([]);
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('answers 404 to an unknown id and 405 to other methods', async () => {
    expect((await call('DELETE', '/api/alerts/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await call('DELETE', '/api/alerts/..%2Fsubs')).status).toBe(404);
    const wrong = await call('POST', '/api/alerts/AAAAAAAAAAAAAAAAAAAAAA', '{}');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('DELETE');
  });
});

describe('delivery after a recorder run', () => {
  async function alertFor(
    extra: Record<string, unknown> = {},
  ): Promise<{ browser: TestSubscriber; endpoint: string; id: string }> {
    const { browser, endpoint, body } = subscriber(extra);
    const { id } = await created(await subscribe(body));
    return { browser, endpoint, id };
  }

  it('pushes a reopening once, encrypted for the browser and signed with the VAPID key, then forgets the alert', async () => {
    const { browser, endpoint, id } = await alertFor();
    const report = await deliverPushes([event()]);
    expect(report).toMatchObject({ sent: 1, gone: 0, failed: 0 });
    expect(push.received).toHaveLength(1);
    const [received] = push.received;
    if (!received) throw new Error('no push');
    expect(received.path).toBe(new URL(endpoint).pathname);
    expect(received.headers.ttl).toBe('900');
    expect(received.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(received.headers.urgency).toBe('high');
    const { payload, vapid: token } = openPush(received, browser);
    expect(payload).toEqual({ type: 'ride-reopened', ride: RIDE, waitNow: 15, url: `${SITE}/parks/${WITH_HOURS}/` });
    expect(token.header.alg).toBe('ES256');
    expect(token.publicKey).toBe(vapid.publicKey);
    expect(token.claims.aud).toBe(push.origin);
    expect(token.claims.sub).toBe(SUBJECT);
    expect((token.claims.exp ?? 0) * 1000 - Date.now()).toBeGreaterThan(3600_000);
    expect((token.claims.exp ?? 0) * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    expect(await deliverPushes([event({ at: Date.now() + 300_000 })])).toMatchObject({ sent: 0 });
    expect(push.received).toHaveLength(1);
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('pushes "below" only when the wait is at or below the minutes asked, for that ride only', async () => {
    const { browser } = await alertFor({ on: 'below', below: 20 });
    const down = { type: 'wait-below' as const, band: 30 };
    expect(
      await deliverPushes([
        event({ ...down, waitNow: 25 }),
        event({ ...down, ride: { id: 1, name: 'Other' }, waitNow: 5 }),
      ]),
    ).toMatchObject({ sent: 0 });
    expect(
      await deliverPushes([event({ type: 'wait-above', waitNow: 10 }), event({ type: 'ride-down', waitNow: null })]),
    ).toMatchObject({ sent: 0 });
    expect(push.received).toHaveLength(0);
    expect(await deliverPushes([event({ type: 'wait-below', band: 20, waitNow: 20 })])).toMatchObject({ sent: 1 });
    const [received] = push.received;
    if (!received) throw new Error('no push');
    expect(openPush(received, browser).payload).toMatchObject({ type: 'wait-below', waitNow: 20 });
  });

  it('deletes the alert when the push service answers 410 Gone', async () => {
    const { endpoint, id } = await alertFor();
    push.answer(new URL(endpoint).pathname, 410);
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, gone: 1 });
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('keeps the alert for the next event when the push service fails (500)', async () => {
    const { endpoint, id } = await alertFor();
    const path = new URL(endpoint).pathname;
    push.answer(path, 500);
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, failed: 1 });
    push.answer(path, 201);
    expect(await deliverPushes([event({ at: Date.now() + 300_000 })])).toMatchObject({ sent: 1 });
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('sweeps expired alerts, endpoint and index, without sending them anything', async () => {
    const { id } = await alertFor();
    const report = await deliverPushes([event()], closesAt + 1);
    expect(report).toMatchObject({ expired: 1, sent: 0 });
    expect(push.received).toHaveLength(0);
    expect(await listKeys('alerts', '')).toEqual([]);
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('sends nothing and keeps the alerts while VAPID is unset', async () => {
    await alertFor();
    for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']) delete process.env[key];
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, failed: 0 });
    expect(push.received).toHaveLength(0);
    expect((await listKeys('alerts', 'subs/')).length).toBe(1);
  });
});
