import { createCipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from 'node:crypto';

// RFC 8291 (Message Encryption for Web Push) over RFC 8188's `aes128gcm` content coding, on Node's own
// crypto: ECDH P-256, HKDF-SHA-256 and AES-128-GCM, one record. No library: see docs/alerts-push.md.

/** The record size written in the header; one record holds the whole payload (RFC 8291 §4: at most 4096). */
const RECORD_SIZE = 4096;
/** RFC 8291 §4: a push message of at most 4096 octets of ciphertext; header and tag aside, this much payload. */
export const MAX_PAYLOAD_BYTES = RECORD_SIZE - 16 - 1;
/** A P-256 public point, uncompressed (0x04, x, y). */
const POINT_BYTES = 65;
const AUTH_SECRET_BYTES = 16;

export class PushKeyError extends Error {
  override name = 'PushKeyError';
}

/** The subscription's keys as `PushSubscription.toJSON()` gives them, URL-safe base64. */
export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
}

/** Fixed inputs, only for reproducing RFC 8291's worked example; otherwise fresh for every message. */
export interface EncryptionInputs {
  /** The application server's one-time private key (32 octets). */
  serverPrivateKey?: Buffer;
  salt?: Buffer;
}

const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${label}\0`, 'latin1'), ...parts]);

/** The user agent's keys, checked: a wrong length would only show as a push nobody can read. */
export function decodeSubscriptionKeys(keys: SubscriptionKeys): { uaPublic: Buffer; authSecret: Buffer } {
  const uaPublic = Buffer.from(keys.p256dh, 'base64url');
  const authSecret = Buffer.from(keys.auth, 'base64url');
  if (uaPublic.length !== POINT_BYTES || uaPublic[0] !== 4) {
    throw new PushKeyError('p256dh must be an uncompressed P-256 point (65 octets)');
  }
  if (authSecret.length !== AUTH_SECRET_BYTES) throw new PushKeyError('auth must be 16 octets');
  return { uaPublic, authSecret };
}

/** The content-encryption key and nonce of RFC 8291 §3.4 and RFC 8188 §2.2–2.3. */
export function deriveKeys(input: {
  ecdhSecret: Buffer;
  authSecret: Buffer;
  uaPublic: Buffer;
  serverPublic: Buffer;
  salt: Buffer;
}): { ikm: Buffer; cek: Buffer; nonce: Buffer } {
  const keyInfo = info('WebPush: info', input.uaPublic, input.serverPublic);
  const ikm = Buffer.from(hkdfSync('sha256', input.ecdhSecret, input.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, input.salt, info('Content-Encoding: aes128gcm'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, input.salt, info('Content-Encoding: nonce'), 12));
  return { ikm, cek, nonce };
}

/**
 * The body of a push message carrying `payload` to the subscription: the `aes128gcm` header (salt,
 * record size, the server's one-time public key) then one record, the payload and its delimiter
 * 0x02 (RFC 8188 §2: the last record), with no padding. Send it with `Content-Encoding: aes128gcm`.
 */
export function encryptPushPayload(payload: Uint8Array, keys: SubscriptionKeys, inputs: EncryptionInputs = {}): Buffer {
  if (payload.byteLength > MAX_PAYLOAD_BYTES) throw new RangeError(`payload over ${MAX_PAYLOAD_BYTES} bytes`);
  const { uaPublic, authSecret } = decodeSubscriptionKeys(keys);
  const server: ECDH = createECDH('prime256v1');
  if (inputs.serverPrivateKey) server.setPrivateKey(inputs.serverPrivateKey);
  else server.generateKeys();
  const serverPublic = server.getPublicKey();
  let ecdhSecret: Buffer;
  try {
    ecdhSecret = server.computeSecret(uaPublic);
  } catch (error) {
    throw new PushKeyError('p256dh is not a point on P-256', { cause: error });
  }
  const salt = inputs.salt ?? randomBytes(16);
  const { cek, nonce } = deriveKeys({ ecdhSecret, authSecret, uaPublic, serverPublic, salt });
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const record = Buffer.concat([
    cipher.update(payload),
    cipher.update(Buffer.from([2])),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  const header = Buffer.alloc(16 + 4 + 1);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header.writeUInt8(serverPublic.length, 20);
  return Buffer.concat([header, serverPublic, record]);
}
