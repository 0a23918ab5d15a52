import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALERTS_PER_PARK } from '../../../src/alerts/alerts.ts';
import { listKeys, timeKey, writeRecord } from '../../../src/platform/store.ts';
import * as z from '../../../src/platform/zod-mini.ts';
import { dayBoundsOf, localDateOf } from '../../../src/wait-times/local-time.ts';
import { findPark } from '../../../src/wait-times/parks.ts';
import {
  call,
  created,
  freshClient,
  subscribe,
  subscriber,
  useAlertsHarness,
  WITHOUT_HOURS,
} from '../../support/alerts-harness.ts';

// POST /api/alerts and DELETE /api/alerts/{id} in-process, Blobs on a local server (tests/support/alerts-harness.ts).

const h = useAlertsHarness();

describe('POST /api/alerts', () => {
  it('keeps an alert until the park closes: 201 { id, expiresAt }, no-store, the base headers', async () => {
    const response = await subscribe(subscriber(h.push).body);
    const answer = await created(response);
    expect(answer.expiresAt).toBe(h.closesAt);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('link')).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it("ends at the end of the park's local day when its hours are unknown", async () => {
    const park = findPark(WITHOUT_HOURS);
    if (!park) throw new Error('no park');
    const answer = await created(await subscribe(subscriber(h.push, { park: WITHOUT_HOURS }).body));
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
    const { body } = subscriber(h.push);
    const response = await subscribe({ ...body, subscription: { ...body.subscription, endpoint } });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { issues: { path: string }[] };
    expect(answer.issues.map((issue) => issue.path)).toEqual(['subscription.endpoint']);
    expect(await listKeys('alerts', '')).toEqual([]);
  });

  it('refuses the fake push service itself unless PUSH_ALLOWED_ORIGINS names it', async () => {
    const { body } = subscriber(h.push);
    delete process.env.PUSH_ALLOWED_ORIGINS;
    expect((await subscribe(body)).status).toBe(400);
    process.env.PUSH_ALLOWED_ORIGINS = `https://other.example, ${h.push.origin}`;
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
    const response = await subscribe({ ...subscriber(h.push).body, ...change });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: string; issues: { path: string }[] };
    expect(answer.error).toBe('invalid alert');
    expect(answer.issues.map((issue) => issue.path)).toContain(path);
  });

  it('answers 413 to a body over 4 KiB and 400 to JSON that does not parse', async () => {
    const big = { ...subscriber(h.push).body, padding: 'x'.repeat(5000) };
    expect((await subscribe(big)).status).toBe(413);
    expect((await call('POST', '/api/alerts', '{"subscription":')).status).toBe(400);
  });

  it('answers 429 with Retry-After past 20 alerts an hour from one client', async () => {
    const client = freshClient();
    for (let n = 0; n < 20; n++) expect((await subscribe(subscriber(h.push).body, client)).status).toBe(201);
    const refused = await subscribe(subscriber(h.push).body, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await subscribe(subscriber(h.push).body)).status).toBe(201);
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
    const refused = await subscribe(subscriber(h.push, { park: WITHOUT_HOURS }).body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590);
    expect((await subscribe(subscriber(h.push).body)).status).toBe(201);
  });

  it("answers 503 when the private key is not the public key's, and keeps nothing", async () => {
    const other = createECDH('prime256v1');
    other.generateKeys();
    process.env.VAPID_PRIVATE_KEY = other.getPrivateKey().toString('base64url');
    const response = await subscribe(subscriber(h.push).body);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/VAPID keys unset or not a pair/);
    expect(await listKeys('alerts', '')).toEqual([]);
  });

  it('answers 503 saying so while VAPID is not configured, and keeps nothing', async () => {
    for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']) delete process.env[key];
    const response = await subscribe(subscriber(h.push).body);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/VAPID/);
    expect(await listKeys('alerts', '')).toEqual([]);
  });
});

describe('DELETE /api/alerts/{id}', () => {
  it('deletes an alert, endpoint and all: 204, then 404', async () => {
    const { id } = await created(await subscribe(subscriber(h.push).body));
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
