import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { ConfigError } from '../../../src/platform/errors.ts';

// The Web Push settings as the server reads them at start (README, "Configuration").

const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
const PAIR = {
  VAPID_PUBLIC_KEY: ecdh.getPublicKey('base64url'),
  VAPID_PRIVATE_KEY: ecdh.getPrivateKey('base64url'),
  VAPID_SUBJECT: 'mailto:owner@example.com',
};
const load = (env: Record<string, string>) => loadConfig({ SITE_URL: 'https://site.example', ...env }, undefined);

describe('the Web Push settings', () => {
  it('take a key pair as web-push generate-vapid-keys prints it, and a contact', () => {
    expect(load(PAIR)).toMatchObject(PAIR);
  });

  it.each([
    ['a public key that is not a P-256 point', { ...PAIR, VAPID_PUBLIC_KEY: 'BAAA' }, /VAPID_PUBLIC_KEY/],
    [
      'a private key in standard base64',
      { ...PAIR, VAPID_PRIVATE_KEY: `${PAIR.VAPID_PRIVATE_KEY.slice(0, 42)}+` },
      /VAPID_PRIVATE_KEY/,
    ],
    ['a subject that is no mailto: or https: URL', { ...PAIR, VAPID_SUBJECT: 'owner@example.com' }, /VAPID_SUBJECT/],
    ['the public key alone', { VAPID_PUBLIC_KEY: PAIR.VAPID_PUBLIC_KEY }, /go together/],
  ])('refuse %s, naming the variable', (_, env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it('read PUSH_ALLOWED_ORIGINS as a list of origins, empty when unset', () => {
    expect(load({}).PUSH_ALLOWED_ORIGINS).toEqual([]);
    expect(
      load({ PUSH_ALLOWED_ORIGINS: ' http://127.0.0.1:8080/ , https://push.example ' }).PUSH_ALLOWED_ORIGINS,
    ).toEqual(['http://127.0.0.1:8080', 'https://push.example']);
  });
});
