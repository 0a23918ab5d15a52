import { createDecipheriv, createECDH, createPublicKey, hkdfSync, verify } from 'node:crypto';

/**
 * The receiving side of Web Push, as a browser does it, for tests only: written apart from
 * src/alerts/ (sharing no code) so that a mistake there cannot agree with itself here.
 */

/** A browser's subscription: its private key, and the keys it hands out (`PushSubscription.toJSON().keys`). */
export interface TestSubscriber {
  privateKey: Buffer;
  keys: { p256dh: string; auth: string };
}

/** A fresh subscriber key pair and auth secret, or the given ones (RFC 8291 Appendix A). */
export function testSubscriber(fixed?: { privateKey: string; auth: string }): TestSubscriber {
  const ecdh = createECDH('prime256v1');
  if (fixed) ecdh.setPrivateKey(Buffer.from(fixed.privateKey, 'base64url'));
  else ecdh.generateKeys();
  const auth = fixed ? fixed.auth : Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');
  return { privateKey: ecdh.getPrivateKey(), keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
}

const label = (text: string) => Buffer.from(`${text}\0`, 'latin1');

/** Decrypts an `aes128gcm` body (RFC 8188 header, RFC 8291 keys) and strips the record's padding. */
export function decryptPush(body: Buffer, subscriber: TestSubscriber): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (record.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(subscriber.privateKey);
  const uaPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(serverPublic);
  const auth = Buffer.from(subscriber.keys.auth, 'base64url');
  const keyInfo = Buffer.concat([label('WebPush: info'), uaPublic, serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = hkdfSync('sha256', ikm, salt, label('Content-Encoding: aes128gcm'), 16);
  const nonce = hkdfSync('sha256', ikm, salt, label('Content-Encoding: nonce'), 12);
  const decipher = createDecipheriv('aes-128-gcm', Buffer.from(cek), Buffer.from(nonce));
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with 0x02 then zero padding (RFC 8188 §2).
  const end = plain.lastIndexOf(2);
  if (end < 0 || plain.subarray(end + 1).some((byte) => byte !== 0)) throw new Error('no last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

export interface VapidCheck {
  header: { typ?: string; alg?: string };
  claims: { aud?: string; exp?: number; sub?: string };
  publicKey: string;
}

/**
 * Reads `Authorization: vapid t=…, k=…` (RFC 8292 §3) and verifies the token's ES256 signature with
 * the key `k` names; throws when the scheme, the form or the signature is wrong.
 */
export function verifyVapid(authorization: string | undefined): VapidCheck {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a vapid authorization: ${authorization}`);
  const [token = '', publicKey = ''] = match.slice(1);
  const [header = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('VAPID signature does not verify');
  const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: json(header), claims: json(claims), publicKey };
}
