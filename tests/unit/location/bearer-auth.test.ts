import { describe, expect, it } from 'vitest';
import {
  bearerChallenge,
  type Credentials,
  protectedResourceMetadata,
  readCredentials,
  requireBearerToken,
  tokensEqual,
} from '../../../src/location/bearer-auth.ts';
import { ProtectedResourceMetadataSchema } from '../../../src/location/location-schemas.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import { parseChallenge } from '../../support/location-fixtures.ts';

const TOKEN = 'k3y-0f_the.0wner~Ab+/c==';
const SITE = 'https://site.example';
const basic = (userAndPassword: string) => `Basic ${Buffer.from(userAndPassword, 'utf8').toString('base64')}`;
const request = (authorization?: string, query = '') =>
  new Request(`${SITE}/api/location${query}`, {
    method: 'POST',
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });

describe('readCredentials', () => {
  it.each<[string, string | undefined, string, Credentials]>([
    ['no header', undefined, '', { kind: 'none' }],
    ['an empty header', '', '', { kind: 'none' }],
    ['Bearer', `Bearer ${TOKEN}`, '', { kind: 'token', token: TOKEN }],
    // RFC 9110 §11.1: the scheme is case-insensitive, and 1*SP may separate it from the token.
    ['bearer in lower case', `bearer ${TOKEN}`, '', { kind: 'token', token: TOKEN }],
    ['BEARER in upper case', `BEARER ${TOKEN}`, '', { kind: 'token', token: TOKEN }],
    ['two spaces after the scheme', `Bearer  ${TOKEN}`, '', { kind: 'token', token: TOKEN }],
    ['Basic with the token as password', basic(`owner:${TOKEN}`), '', { kind: 'token', token: TOKEN }],
    ['Basic with an empty user name', basic(`:${TOKEN}`), '', { kind: 'token', token: TOKEN }],
    ['Basic whose password holds a colon', basic('u:a:b'), '', { kind: 'token', token: 'a:b' }],
    ['basic in lower case', basic(`u:${TOKEN}`).replace('Basic', 'basic'), '', { kind: 'token', token: TOKEN }],
    // RFC 6750 §3.1: an unsupported method is "no authentication information", not an error.
    ['an unsupported scheme', 'Digest username="x"', '', { kind: 'none' }],
    ['a token in the query only', undefined, `?access_token=${TOKEN}`, { kind: 'none' }],
    ['Bearer without a token', 'Bearer', '', { kind: 'malformed', reason: 'malformed bearer token' }],
    ['Bearer with two tokens', 'Bearer abc def', '', { kind: 'malformed', reason: 'malformed bearer token' }],
    ['Bearer with a quote', 'Bearer "abc"', '', { kind: 'malformed', reason: 'malformed bearer token' }],
    ['Bearer with padding inside', 'Bearer ab=c', '', { kind: 'malformed', reason: 'malformed bearer token' }],
    [
      'two Authorization headers joined',
      `Bearer ${TOKEN}, Bearer ${TOKEN}`,
      '',
      { kind: 'malformed', reason: 'malformed bearer token' },
    ],
    ['Basic that is not base64', 'Basic ***', '', { kind: 'malformed', reason: 'malformed Basic credentials' }],
    ['Basic without a colon', basic(TOKEN), '', { kind: 'malformed', reason: 'malformed Basic credentials' }],
    ['a scheme that is not a token', '(Bearer) x', '', { kind: 'malformed', reason: 'malformed Authorization header' }],
    // RFC 6750 §3.1: "uses more than one method for including an access token".
    [
      'a token in the header and the query',
      `Bearer ${TOKEN}`,
      `?access_token=${TOKEN}`,
      { kind: 'malformed', reason: 'access token sent in more than one way' },
    ],
  ])('reads %s', (_case, header, query, expected) => {
    expect(readCredentials(request(header, query))).toEqual(expected);
  });
});

describe('tokensEqual', () => {
  it.each([
    [TOKEN, TOKEN, true],
    [`${TOKEN}x`, TOKEN, false],
    [TOKEN.slice(0, -1), TOKEN, false],
    [TOKEN.toUpperCase(), TOKEN, false],
    ['', TOKEN, false],
    ['x'.repeat(10_000), TOKEN, false],
  ])('%s against the token: %s', (presented, expected, equal) => {
    expect(tokensEqual(presented, expected)).toBe(equal);
  });
});

describe('bearerChallenge, checked against RFC 6750 §3 / RFC 9728 §5.1 with a parser of RFC 9110 §11', () => {
  // error and error_description: %x20-21 / %x23-5B / %x5D-7E (RFC 6750 §3).
  const ERROR_CHARS = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

  it.each([
    ['no credentials', undefined, undefined],
    ['a wrong token', { code: 'invalid_token', description: 'The access token is invalid' } as const, 'invalid_token'],
    [
      'a malformed request',
      { code: 'invalid_request', description: 'malformed bearer token' } as const,
      'invalid_request',
    ],
  ])('for %s', (_case, error, code) => {
    const header = bearerChallenge(SITE, error);
    const { scheme, params, rawValues } = parseChallenge(header);
    expect(scheme).toBe('Bearer');
    expect(params.length).toBeGreaterThanOrEqual(1); // WA-3: never a bare "Bearer"
    const names = params.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length); // WA-10: no parameter twice
    const values = Object.fromEntries(params);
    expect(rawValues.realm).toMatch(/^".*"$/); // WA-4: realm as a quoted-string
    expect(values.resource_metadata).toBe(`${SITE}/.well-known/oauth-protected-resource`); // WA-5
    expect(URL.canParse(values.resource_metadata ?? '')).toBe(true);
    expect(values.error).toBe(code); // WA-6 / WA-7 / WA-8
    for (const name of ['error', 'error_description']) {
      if (values[name] !== undefined) expect(values[name]).toMatch(ERROR_CHARS); // WA-11
    }
    expect(names.every((name) => ['realm', 'error', 'error_description', 'resource_metadata'].includes(name))).toBe(
      true,
    );
  });

  it('is exactly the documented form', () => {
    expect(bearerChallenge(SITE)).toBe(
      'Bearer realm="site-api", resource_metadata="https://site.example/.well-known/oauth-protected-resource"',
    );
    expect(bearerChallenge(SITE, { code: 'invalid_token', description: 'The access token is invalid' })).toBe(
      'Bearer realm="site-api", error="invalid_token", error_description="The access token is invalid", resource_metadata="https://site.example/.well-known/oauth-protected-resource"',
    );
  });

  it('the test parser rejects what RFC 9110 does not allow', () => {
    expect(() => parseChallenge('Bearer realm="unterminated')).toThrow();
    expect(() => parseChallenge('Bearer realm=a b')).toThrow();
    expect(() => parseChallenge('Bearer  ,')).toThrow();
    expect(parseChallenge('Bearer realm=x,  error="a\\"b"').params).toEqual([
      ['realm', 'x'],
      ['error', 'a"b'],
    ]);
  });
});

describe('requireBearerToken without a configured token', () => {
  // Nothing can be right, so nothing is counted or looked up: every request is a 401.
  const failures = { name: 'unused', limit: 1, windowMs: 1 };

  it.each([
    ['no credentials', undefined, undefined],
    ['a token', `Bearer ${TOKEN}`, 'invalid_token'],
    ['Basic', basic(`u:${TOKEN}`), 'invalid_token'],
    ['a malformed header', 'Bearer', 'invalid_token'],
  ])('answers 401 to %s', async (_case, header, code) => {
    const error = await requireBearerToken(request(header), {
      expected: undefined,
      siteUrl: SITE,
      client: '203.0.113.9',
      failures,
    }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 401, headers: { 'Cache-Control': 'no-store' } });
    const challenge = parseChallenge((error as { headers: Record<string, string> }).headers['WWW-Authenticate'] ?? '');
    expect(Object.fromEntries(challenge.params).error).toBe(code);
  });
});

describe('LOCATION_TOKEN', () => {
  it.each([
    ['a b64token of 16 characters or more', 'AbCdEf0123456789-._~+/==', true],
    ['shorter than 16 characters', 'short-token', false],
    ['with a space (could never be sent as a bearer token)', 'abcdefgh ijklmnopq', false],
    ['with a quote', 'abcdefghijklmnop"', false],
  ])('is accepted or refused at start: %s', (_case, token, ok) => {
    const load = () => loadConfig({ LOCATION_TOKEN: token });
    if (ok) expect(load().LOCATION_TOKEN).toBe(token);
    else expect(load).toThrow(/LOCATION_TOKEN/);
  });
});

describe('protectedResourceMetadata (RFC 9728)', () => {
  it('names the site origin as the resource, header tokens only, and no authorization server', () => {
    const metadata = ProtectedResourceMetadataSchema.parse(protectedResourceMetadata(SITE));
    expect(metadata).toEqual({
      resource: SITE,
      bearer_methods_supported: ['header'],
      resource_name: expect.any(String),
      resource_documentation: `${SITE}/docs/api/`,
    });
    expect(metadata).not.toHaveProperty('authorization_servers');
    expect(metadata).not.toHaveProperty('scopes_supported');
  });
});
