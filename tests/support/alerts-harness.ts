import { createECDH } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import alerts from '../../netlify/functions/alerts.mts';
import { createContext } from '../../server/functions.mts';
import { deleteRecords, listKeys, writeRecord } from '../../src/platform/store.ts';
import * as z from '../../src/platform/zod-mini.ts';
import type { ParkEvent } from '../../src/wait-times/events/event-schemas.ts';
import { StoredScheduleSchema } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { localDateOf } from '../../src/wait-times/local-time.ts';
import { findPark } from '../../src/wait-times/parks.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import { startLocalBlobs } from './local-blobs.ts';
import { testSubscriber } from './push-receiver.ts';

/**
 * What the alerts request tests share: POST /api/alerts and DELETE /api/alerts/{id} called
 * in-process, Blobs on a local server, a fake push service on loopback that PUSH_ALLOWED_ORIGINS
 * names, a VAPID key pair, and EPCOT's hours stored (closing 3 hours after the start).
 */

export const SITE = 'https://site.example';
export const SUBJECT = 'mailto:owner@site.example';
/** A park whose hours the harness stores, and one whose hours are unknown. */
export const WITH_HOURS = 'epcot';
export const WITHOUT_HOURS = 'magic-kingdom';
export const RIDE = { id: 159, name: 'Test Track' };
const ENV_KEYS = [
  'SITE_URL',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'PUSH_ALLOWED_ORIGINS',
] as const;

export const vapid = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
})();

/** Starts the servers around a test file; `push` and `closesAt` are set once it has started. */
export function useAlertsHarness() {
  const state = { push: undefined as unknown as FakePushService, closesAt: 0 };
  let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;
  beforeAll(async () => {
    blobs = await startLocalBlobs();
    state.push = await startFakePushService();
    const park = findPark(WITH_HOURS);
    if (!park) throw new Error('no park');
    const now = Date.now();
    state.closesAt = now + 3 * 3600_000;
    const row = { date: localDateOf(now, park.timezone), type: 'OPERATING' as const, description: null };
    await writeRecord('wait-times', `hours/${WITH_HOURS}`, StoredScheduleSchema, {
      fetchedAt: now,
      rows: [{ ...row, opensAt: now - 6 * 3600_000, closesAt: state.closesAt }],
    });
  });
  afterAll(async () => {
    await state.push.close();
    await blobs.stop();
  });
  beforeEach(async () => {
    Object.assign(process.env, {
      SITE_URL: SITE,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: SUBJECT,
      PUSH_ALLOWED_ORIGINS: state.push.origin,
    });
    state.push.received.length = 0;
    await deleteRecords('alerts', await listKeys('alerts', ''));
  });
  afterEach(() => {
    for (const key of ENV_KEYS) delete process.env[key];
  });
  return state;
}

let clients = 0;
let subscriptions = 0;
/** Each call is its own client unless told, so one test's rate limit never spills into another. */
export const freshClient = () => `203.0.113.${++clients}`;

/** Calls the alerts function in-process as Netlify routes it. */
export function call(method: string, path: string, body?: string, client = freshClient()): Promise<Response> {
  const url = new URL(path, SITE);
  const id = /^\/api\/alerts\/([^/]+)/.exec(url.pathname)?.[1];
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const request = new Request(url, { method, headers, body: body ?? null });
  const params = id === undefined ? {} : { id };
  return alerts(request, createContext({ ip: client, url, params, siteUrl: SITE, waitUntil: () => {} }));
}

/** A browser's subscription on the fake service, and the body subscribing it. */
export function subscriber(push: FakePushService, extra: Record<string, unknown> = {}) {
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

export const subscribe = (body: unknown, client?: string) => call('POST', '/api/alerts', JSON.stringify(body), client);

const CreatedSchema = z.strictObject({ id: z.string().check(z.regex(/^[\w-]{22}$/)), expiresAt: z.int() });
/** The 201's body, checked. */
export async function created(response: Response) {
  expect(response.status).toBe(201);
  return z.parse(CreatedSchema, await response.json());
}

/** An event as the recorder adds it (src/wait-times/events/event-schemas.ts), a reopening by default. */
export function event(overrides: Partial<ParkEvent> = {}): ParkEvent {
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
