import { createECDH, createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { ConfigError } from '../platform/errors.ts';
import { HOUR_MS } from '../platform/time-units.ts';

// RFC 8292 (VAPID): the application server proves who it is to the push service with a short-lived
// ES256 JSON Web Token signed by the key pair whose public half the browser subscribed with.

/** RFC 8292 §2: at most 24 hours; 12 leaves room for clocks that disagree. */
const TOKEN_LIFETIME_MS = 12 * HOUR_MS;

export interface VapidKeys {
  /** The public key as the browser's `applicationServerKey` takes it: URL-safe base64, 65 octets. */
  publicKey: string;
  privateKey: KeyObject;
  subject: string;
}

let cached: { source: string; keys: VapidKeys } | undefined;

/**
 * The configured key pair, or null when Web Push is not configured. Throws a ConfigError when the
 * private key does not belong to the public one: every push would be refused by the push service.
 */
export function vapidKeys(): VapidKeys | null {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = getConfig();
  if (!VAPID_PUBLIC_KEY || !VAPID_PRIVATE_KEY || !VAPID_SUBJECT) return null;
  const source = `${VAPID_PUBLIC_KEY} ${VAPID_PRIVATE_KEY} ${VAPID_SUBJECT}`;
  if (cached?.source === source) return cached.keys;
  const point = Buffer.from(VAPID_PUBLIC_KEY, 'base64url');
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(VAPID_PRIVATE_KEY, 'base64url'));
  } catch (error) {
    throw new ConfigError('VAPID_PRIVATE_KEY is not a P-256 private key', { cause: error });
  }
  if (!ecdh.getPublicKey().equals(point)) {
    throw new ConfigError('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
  }
  // Node signs with a KeyObject; a JWK carries the raw scalar and point as they are.
  const privateKey = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: VAPID_PRIVATE_KEY,
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
  });
  const keys = { publicKey: VAPID_PUBLIC_KEY, privateKey, subject: VAPID_SUBJECT };
  cached = { source, keys };
  return keys;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `Authorization: vapid t=<JWT>, k=<public key>` for a push to `endpoint` (RFC 8292 §3): the token's
 * audience is the push service's origin, `exp` 12 hours on, `sub` the operator's contact.
 */
export function vapidAuthorization(endpoint: string, keys: VapidKeys, now = Date.now()): string {
  const header = base64url({ typ: 'JWT', alg: 'ES256' });
  const claims = base64url({
    aud: new URL(endpoint).origin,
    exp: Math.floor((now + TOKEN_LIFETIME_MS) / 1000),
    sub: keys.subject,
  });
  const input = `${header}.${claims}`;
  // JWS (RFC 7518 §3.4) wants r || s, not DER.
  const signature = sign('sha256', Buffer.from(input), { key: keys.privateKey, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${input}.${signature.toString('base64url')}, k=${keys.publicKey}`;
}
