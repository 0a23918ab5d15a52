import { randomBytes } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { badRequest, ConfigError, notFound, serviceUnavailable, tooManyRequests } from '../platform/errors.ts';
import type { Answer } from '../platform/http.ts';
import { hitRateLimit, type RateLimit } from '../platform/rate-limit.ts';
import { validBody } from '../platform/request-body.ts';
import { HOUR_MS } from '../platform/time-units.ts';
import { parkHoursToday } from '../wait-times/hours/park-hours.ts';
import { dayBoundsOf, localDateOf } from '../wait-times/local-time.ts';
import { findPark, type Park } from '../wait-times/parks.ts';
import { type AlertCreated, AlertRequestSchema, type StoredAlert } from './alert-schemas.ts';
import { deleteAlert, earliestExpiry, liveAlertKeys, saveAlert } from './alert-store.ts';
import { pushEndpointProblem } from './push-endpoints.ts';
import { vapidKeys } from './vapid.ts';

/** POST /api/alerts and DELETE /api/alerts/{id}: the rules (docs/alerts-push.md). */

export const ALERTS_MAX_BODY_BYTES = 4 * 1024;
/** A visitor sets a few alerts a day; 20 an hour leaves room for changing one's mind. Valid requests only. */
export const ALERTS_RATE_LIMIT: RateLimit = { name: 'alerts', limit: 20, windowMs: HOUR_MS };
/**
 * Live alerts per park: what one recorder run can push within its time (push-send.ts) and what a
 * flood of made-up subscriptions could cost; past it, 429 until the next one expires.
 */
export const ALERTS_PER_PARK = 500;
/** The 503 while VAPID keys are unset (or not a pair): the park page then offers no alerts. */
export const webPushUnavailable = () =>
  serviceUnavailable('web push is not configured on this site (VAPID keys unset or not a pair)');
/** 16 random octets, URL-safe base64: nobody finds another's alert by trying. */
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** 503 unless VAPID keys are set and belong together (a mismatched pair is logged: the owner must fix it). */
function requireVapid() {
  let keys: ReturnType<typeof vapidKeys>;
  try {
    keys = vapidKeys();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`alerts: ${error.message}`);
    throw webPushUnavailable();
  }
  if (!keys) throw webPushUnavailable();
  return keys;
}

/** GET /api/alerts/key: the public key the browser subscribes with. */
export function vapidPublicKey(): { publicKey: string } {
  return { publicKey: requireVapid().publicKey };
}

/** When an alert made at `now` ends: the park's closing today, else the end of its local day. */
export async function alertExpiry(park: Park, now: number): Promise<number> {
  const hours = await parkHoursToday(park, { now });
  if (hours && hours.closesAt > now) return hours.closesAt;
  return dayBoundsOf(localDateOf(now, park.timezone), park.timezone).endsAt;
}

/**
 * Validates and keeps an alert: 503 without VAPID, 400 naming the field, 400 for an endpoint that is
 * no known push service, 429 past the client's or the park's limit. Answers 201 `{ id, expiresAt }`.
 */
export async function createAlert(value: unknown, options: { client: string; now?: number }): Promise<Answer> {
  requireVapid();
  const now = options.now ?? Date.now();
  const request = validBody(AlertRequestSchema, value, 'invalid alert');
  const problem = pushEndpointProblem(request.subscription.endpoint, getConfig().PUSH_ALLOWED_ORIGINS);
  if (problem) throw badRequest('invalid alert', [{ path: 'subscription.endpoint', message: problem }]);
  const park = findPark(request.park);
  if (!park) throw badRequest('invalid alert', [{ path: 'park', message: 'is not a park of this site' }]);

  const live = await liveAlertKeys(park.slug, now);
  if (live.length >= ALERTS_PER_PARK) throw tooManyRequests((earliestExpiry(live) - now) / 1000);
  await hitRateLimit(ALERTS_RATE_LIMIT, options.client, now);

  const alert: StoredAlert = {
    version: 1,
    id: randomBytes(16).toString('base64url'),
    park: park.slug,
    ride: request.ride,
    on: request.on,
    below: request.on === 'below' ? (request.below ?? 0) : null,
    endpoint: request.subscription.endpoint,
    keys: request.subscription.keys,
    createdAt: now,
    expiresAt: await alertExpiry(park, now),
  };
  await saveAlert(alert);
  const created: AlertCreated = { id: alert.id, expiresAt: alert.expiresAt };
  return { status: 201, json: created };
}

/** 204 when the alert was there and is gone, 404 otherwise (also for ids that cannot be ours). */
export async function cancelAlert(id: string): Promise<Answer> {
  if (!ID_PATTERN.test(id) || !(await deleteAlert(id))) throw notFound('no such alert');
  return { status: 204, empty: true };
}
