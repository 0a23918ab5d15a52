import { createECDH } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveKeys, encryptPushPayload, PushKeyError } from '../../../src/alerts/push-encryption.ts';
import { vapidAuthorization, vapidKeys } from '../../../src/alerts/vapid.ts';
import { ConfigError } from '../../../src/platform/errors.ts';
import { decryptPush, testSubscriber, verifyVapid } from '../../support/push-receiver.ts';

// RFC 8291 §5 and Appendix A: every input of the worked example, and what each step must give.
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  ecdhSecret: 'kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs',
  ikm: 'S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg',
  cek: 'oIhVW04MRdy2XN9CiKLxTg',
  nonce: '4h_95klXJ5E_qnoN',
  body: 'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};
const b = (text: string) => Buffer.from(text, 'base64url');
const rfcKeys = { p256dh: RFC.uaPublic, auth: RFC.auth };

describe('RFC 8291 encryption (aes128gcm)', () => {
  it("derives the worked example's IKM, content-encryption key and nonce", () => {
    const keys = deriveKeys({
      ecdhSecret: b(RFC.ecdhSecret),
      authSecret: b(RFC.auth),
      uaPublic: b(RFC.uaPublic),
      serverPublic: b(RFC.asPublic),
      salt: b(RFC.salt),
    });
    expect(keys.ikm.toString('base64url')).toBe(RFC.ikm);
    expect(keys.cek.toString('base64url')).toBe(RFC.cek);
    expect(keys.nonce.toString('base64url')).toBe(RFC.nonce);
  });

  it("encrypts the worked example to the RFC's body, octet for octet", () => {
    const body = encryptPushPayload(Buffer.from(RFC.plaintext), rfcKeys, {
      serverPrivateKey: b(RFC.asPrivate),
      salt: b(RFC.salt),
    });
    expect(body.toString('base64url')).toBe(RFC.body);
  });

  it("is read back by the RFC's user agent key", () => {
    const subscriber = testSubscriber({ privateKey: RFC.uaPrivate, auth: RFC.auth });
    expect(subscriber.keys.p256dh).toBe(RFC.uaPublic);
    expect(decryptPush(b(RFC.body), subscriber)).toBe(RFC.plaintext);
  });

  it('uses a fresh key and salt for every message, each readable by its subscriber', () => {
    const subscriber = testSubscriber();
    const payload = Buffer.from(JSON.stringify({ type: 'ride-reopened', text: 'Ünïcode ✓' }));
    const [first, second] = [
      encryptPushPayload(payload, subscriber.keys),
      encryptPushPayload(payload, subscriber.keys),
    ];
    expect(first.subarray(0, 16).equals(second.subarray(0, 16))).toBe(false);
    expect(first.subarray(21, 86).equals(second.subarray(21, 86))).toBe(false);
    expect(first.readUInt32BE(16)).toBe(4096);
    expect(decryptPush(first, subscriber)).toBe(payload.toString());
    expect(decryptPush(second, subscriber)).toBe(payload.toString());
    expect(() => decryptPush(first, testSubscriber())).toThrow();
  });

  it.each([
    ['a short p256dh', { p256dh: 'AAAA', auth: RFC.auth }, /p256dh/],
    ['a compressed point', { p256dh: Buffer.alloc(65, 3).toString('base64url'), auth: RFC.auth }, /p256dh/],
    [
      'a point off the curve',
      { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'), auth: RFC.auth },
      /not a point on P-256/,
    ],
    ['a 15-octet auth secret', { p256dh: RFC.uaPublic, auth: Buffer.alloc(15).toString('base64url') }, /auth/],
  ])('refuses %s', (_, keys, message) => {
    expect(() => encryptPushPayload(Buffer.from('x'), keys)).toThrow(PushKeyError);
    expect(() => encryptPushPayload(Buffer.from('x'), keys)).toThrow(message);
  });
});

/** A VAPID key pair as `web-push generate-vapid-keys` prints it. */
function generatedVapidKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
}
const ENV = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

describe('RFC 8292 VAPID', () => {
  it('is off without keys', () => {
    expect(vapidKeys()).toBeNull();
  });

  it('signs an ES256 token for the push service origin, valid 12 hours, with the subject and the public key', () => {
    const generated = generatedVapidKeys();
    Object.assign(process.env, {
      VAPID_PUBLIC_KEY: generated.publicKey,
      VAPID_PRIVATE_KEY: generated.privateKey,
      VAPID_SUBJECT: 'mailto:owner@site.example',
    });
    const keys = vapidKeys();
    if (!keys) throw new Error('expected keys');
    const now = Date.UTC(2026, 10, 28, 12);
    const header = vapidAuthorization('https://fcm.googleapis.com/fcm/send/abc:def?x=1', keys, now);
    const checked = verifyVapid(header);
    expect(checked.header).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(checked.claims).toEqual({
      aud: 'https://fcm.googleapis.com',
      exp: now / 1000 + 12 * 3600,
      sub: 'mailto:owner@site.example',
    });
    expect(checked.publicKey).toBe(generated.publicKey);
  });

  it('produces a token another key does not verify', () => {
    const generated = generatedVapidKeys();
    Object.assign(process.env, {
      VAPID_PUBLIC_KEY: generated.publicKey,
      VAPID_PRIVATE_KEY: generated.privateKey,
      VAPID_SUBJECT: 'https://site.example/',
    });
    const keys = vapidKeys();
    if (!keys) throw new Error('expected keys');
    const other = generatedVapidKeys().publicKey;
    const forged = vapidAuthorization('https://web.push.apple.com/x', keys).replace(/k=.*$/, `k=${other}`);
    expect(() => verifyVapid(forged)).toThrow(/signature/);
  });

  it('refuses a private key that does not belong to the public key', () => {
    const [one, two] = [generatedVapidKeys(), generatedVapidKeys()];
    Object.assign(process.env, {
      VAPID_PUBLIC_KEY: one.publicKey,
      VAPID_PRIVATE_KEY: two.privateKey,
      VAPID_SUBJECT: 'mailto:owner@site.example',
    });
    expect(() => vapidKeys()).toThrow(ConfigError);
  });

  it('refuses half a configuration', () => {
    process.env.VAPID_PUBLIC_KEY = generatedVapidKeys().publicKey;
    expect(() => vapidKeys()).toThrow(/go together/);
  });
});
