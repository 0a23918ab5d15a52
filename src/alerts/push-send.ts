import { hash } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { encryptPushPayload, type SubscriptionKeys } from './push-encryption.ts';
import { pushEndpointProblem } from './push-endpoints.ts';
import { type VapidKeys, vapidAuthorization } from './vapid.ts';

// One push, RFC 8030 §5: a POST of the encrypted payload to the subscription's endpoint.

/** RFC 8030 §5.2: how long the push service keeps an undelivered push; a wait 15 minutes old is news no more. */
export const PUSH_TTL_SECONDS = 900;
/** One push gives up after this: a slow push service must not hold the recorder's run. */
export const PUSH_TIMEOUT_MS = 5_000;

/** `sent`: accepted (2xx). `gone`: the subscription no longer exists (404, 410). `failed`: anything else. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

/**
 * RFC 8030 §5.4: a `Topic` replaces a push still waiting with the same topic; one per ride, so a
 * phone offline for a while gets the newest news of each ride. At most 32 base64url characters.
 */
export const topicOf = (park: string, ride: number) => hash('sha256', `${park}/${ride}`, 'base64url').slice(0, 32);

export interface PushTarget {
  endpoint: string;
  keys: SubscriptionKeys;
}

/**
 * Encrypts `payload` for the target and posts it; never throws. The endpoint is checked again (the
 * allowed origins may have changed since it was kept) and redirects are not followed: a push service
 * does not redirect, and following one would send the request where nobody checked.
 */
export async function sendPush(
  target: PushTarget,
  payload: unknown,
  options: { vapid: VapidKeys; topic: string; urgency?: 'normal' | 'high'; now?: number; timeoutMs?: number },
): Promise<{ outcome: PushOutcome; status?: number }> {
  try {
    if (pushEndpointProblem(target.endpoint, getConfig().PUSH_ALLOWED_ORIGINS)) return { outcome: 'gone' };
    const body = encryptPushPayload(Buffer.from(JSON.stringify(payload)), target.keys);
    const response = await fetch(target.endpoint, {
      method: 'POST',
      headers: {
        Authorization: vapidAuthorization(target.endpoint, options.vapid, options.now),
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
        TTL: String(PUSH_TTL_SECONDS),
        Topic: options.topic,
        Urgency: options.urgency ?? 'normal',
      },
      body: new Uint8Array(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => {});
    const { status } = response;
    if (status >= 200 && status < 300) return { outcome: 'sent', status };
    return { outcome: status === 404 || status === 410 ? 'gone' : 'failed', status };
  } catch (error) {
    // A key the push service's browser gave us that does not work is as good as gone.
    if ((error as Error).name === 'PushKeyError') return { outcome: 'gone' };
    return { outcome: 'failed' };
  }
}
