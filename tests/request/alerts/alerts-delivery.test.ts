import { describe, expect, it } from 'vitest';
import { deliverPushes } from '../../../src/alerts/deliver-pushes.ts';
import { listKeys } from '../../../src/platform/store.ts';
import {
  call,
  created,
  event,
  RIDE,
  SITE,
  SUBJECT,
  subscribe,
  subscriber,
  useAlertsHarness,
  vapid,
  WITH_HOURS,
} from '../../support/alerts-harness.ts';
import { openPush } from '../../support/fake-push-service.ts';
import type { TestSubscriber } from '../../support/push-receiver.ts';

// The recorder's delivery (deliverPushes) to a fake push service on loopback that decrypts what it
// receives with the browser's keys and verifies the VAPID token (tests/support/alerts-harness.ts).

const h = useAlertsHarness();

describe('delivery after a recorder run', () => {
  async function alertFor(
    extra: Record<string, unknown> = {},
  ): Promise<{ browser: TestSubscriber; endpoint: string; id: string }> {
    const { browser, endpoint, body } = subscriber(h.push, extra);
    const { id } = await created(await subscribe(body));
    return { browser, endpoint, id };
  }

  it('pushes a reopening once, encrypted for the browser and signed with the VAPID key, then forgets the alert', async () => {
    const { browser, endpoint, id } = await alertFor();
    const report = await deliverPushes([event()]);
    expect(report).toMatchObject({ sent: 1, gone: 0, failed: 0 });
    expect(h.push.received).toHaveLength(1);
    const [received] = h.push.received;
    if (!received) throw new Error('no push');
    expect(received.path).toBe(new URL(endpoint).pathname);
    expect(received.headers.ttl).toBe('900');
    expect(received.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(received.headers.urgency).toBe('high');
    const { payload, vapid: token } = openPush(received, browser);
    expect(payload).toEqual({ type: 'ride-reopened', ride: RIDE, waitNow: 15, url: `${SITE}/parks/${WITH_HOURS}/` });
    expect(token.header.alg).toBe('ES256');
    expect(token.publicKey).toBe(vapid.publicKey);
    expect(token.claims.aud).toBe(h.push.origin);
    expect(token.claims.sub).toBe(SUBJECT);
    expect((token.claims.exp ?? 0) * 1000 - Date.now()).toBeGreaterThan(3600_000);
    expect((token.claims.exp ?? 0) * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    expect(await deliverPushes([event({ at: Date.now() + 300_000 })])).toMatchObject({ sent: 0 });
    expect(h.push.received).toHaveLength(1);
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
    expect(h.push.received).toHaveLength(0);
    expect(await deliverPushes([event({ type: 'wait-below', band: 20, waitNow: 20 })])).toMatchObject({ sent: 1 });
    const [received] = h.push.received;
    if (!received) throw new Error('no push');
    expect(openPush(received, browser).payload).toMatchObject({ type: 'wait-below', waitNow: 20 });
  });

  it('pushes, in one run, every alert its events match across rides, and only those', async () => {
    const first = await alertFor();
    const other = await alertFor({ ride: 7 });
    const tooLong = await alertFor({ on: 'below', below: 10 });
    const soarin = { id: 7, name: 'Soarin’' };
    const report = await deliverPushes([event({ waitNow: 15 }), event({ ride: soarin, waitNow: 5 })]);
    expect(report).toMatchObject({ sent: 2, gone: 0, failed: 0 });
    const paths = h.push.received.map((received) => received.path).sort();
    expect(paths).toEqual([new URL(first.endpoint).pathname, new URL(other.endpoint).pathname].sort());
    expect((await call('DELETE', `/api/alerts/${tooLong.id}`)).status).toBe(204);
  });

  it('deletes the alert when the push service answers 410 Gone', async () => {
    const { endpoint, id } = await alertFor();
    h.push.answer(new URL(endpoint).pathname, 410);
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, gone: 1 });
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('keeps the alert for the next event when the push service fails (500)', async () => {
    const { endpoint, id } = await alertFor();
    const path = new URL(endpoint).pathname;
    h.push.answer(path, 500);
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, failed: 1 });
    h.push.answer(path, 201);
    expect(await deliverPushes([event({ at: Date.now() + 300_000 })])).toMatchObject({ sent: 1 });
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('sweeps expired alerts, endpoint and index, without sending them anything', async () => {
    const { id } = await alertFor();
    const report = await deliverPushes([event()], h.closesAt + 1);
    expect(report).toMatchObject({ expired: 1, sent: 0 });
    expect(h.push.received).toHaveLength(0);
    expect(await listKeys('alerts', '')).toEqual([]);
    expect((await call('DELETE', `/api/alerts/${id}`)).status).toBe(404);
  });

  it('sends nothing and keeps the alerts while VAPID is unset', async () => {
    await alertFor();
    for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']) delete process.env[key];
    expect(await deliverPushes([event()])).toMatchObject({ sent: 0, failed: 0 });
    expect(h.push.received).toHaveLength(0);
    expect((await listKeys('alerts', 'subs/')).length).toBe(1);
  });
});
