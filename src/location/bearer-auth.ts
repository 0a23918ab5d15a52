import { createHash, timingSafeEqual } from 'node:crypto';
import { authChallenge } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { checkRateLimit, type RateLimit, reserveAttempt } from '../platform/rate-limit.ts';
import type { ProtectedResourceMetadata } from './location-schemas.ts';

/** RFC 6750 bearer tokens, or the token as a Basic password (OwnTracks on Android can only send Basic). */

/** The RFC 9728 document; `resource` is `SITE_URL` exactly, as every 401 names it (§3.1, §3.3). */
export function protectedResourceMetadata(siteUrl: string): ProtectedResourceMetadata {
  return {
    resource: siteUrl,
    bearer_methods_supported: ['header'],
    resource_name: 'site-api travel-mode location updates (owner only)',
    resource_documentation: `${siteUrl}/docs/api/`,
  };
}

/** `none` covers an unsupported scheme too (RFC 6750 §3.1: no error code then). */
export type Credentials = { kind: 'none' } | { kind: 'token'; token: string } | { kind: 'malformed'; reason: string };

// RFC 9110 §11.1: a token for the scheme, then one or more spaces.
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/;
// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Reads the credentials of a request without judging them. */
export function readCredentials(request: Request): Credentials {
  const header = request.headers.get('authorization')?.trim();
  if (!header) return { kind: 'none' };
  // A query token would end up in logs, so it is never read; beside a header it is malformed (RFC 6750 §3.1).
  if (new URL(request.url).searchParams.has('access_token')) {
    return { kind: 'malformed', reason: 'access token sent in more than one way' };
  }
  const [, scheme = '', value = ''] = CREDENTIALS.exec(header) ?? [];
  if (!scheme) return { kind: 'malformed', reason: 'malformed Authorization header' };
  switch (scheme.toLowerCase()) {
    case 'bearer':
      if (!B64TOKEN.test(value)) return { kind: 'malformed', reason: 'malformed bearer token' };
      return { kind: 'token', token: value };
    case 'basic': {
      // RFC 7617: base64 of "user-id:password"; the user name is not checked.
      const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':');
      if (colon < 0) return { kind: 'malformed', reason: 'malformed Basic credentials' };
      return { kind: 'token', token: decoded.slice(colon + 1) };
    }
    default:
      return { kind: 'none' };
  }
}

/** Constant time whatever either length: two equal-length digests are compared. */
export function tokensEqual(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** `Bearer realm="…"`, the RFC 6750 error if any, and the RFC 9728 `resource_metadata` URL, as quoted-strings. */
export function bearerChallenge(
  siteUrl: string,
  error?: { code: 'invalid_token' | 'invalid_request'; description: string },
): string {
  const params: [string, string][] = [['realm', 'site-api']];
  if (error) params.push(['error', error.code], ['error_description', error.description]);
  params.push(['resource_metadata', `${siteUrl}/.well-known/oauth-protected-resource`]);
  return `Bearer ${params.map(([name, value]) => `${name}="${value.replace(/["\\]/g, '\\$&')}"`).join(', ')}`;
}

const INVALID_TOKEN = { code: 'invalid_token', description: 'The access token is invalid' } as const;

/**
 * Lets the request through only with the expected token. No token configured: 401, nothing counted.
 * No credentials guess nothing: 401, or 429 past the limit. Credentials first take an attempt
 * (`failures`, 429 past the limit, so concurrent guesses cannot all be compared); then unreadable
 * ones are 400 `invalid_request`, a wrong token 401 `invalid_token`, and the right one gives it back.
 */
export async function requireBearerToken(
  request: Request,
  options: {
    expected: string | undefined;
    siteUrl: string;
    client: string;
    failures: RateLimit;
    later?: AfterAnswer | undefined;
  },
): Promise<void> {
  const credentials = readCredentials(request);
  const { expected, siteUrl, client, failures, later } = options;
  const missing = () => authChallenge(401, 'bearer token required', bearerChallenge(siteUrl));
  const invalid = () => authChallenge(401, 'invalid token', bearerChallenge(siteUrl, INVALID_TOKEN));
  if (expected === undefined) throw credentials.kind === 'none' ? missing() : invalid();
  if (credentials.kind === 'none') {
    await checkRateLimit(failures, client, { later });
    throw missing();
  }
  const attempt = await reserveAttempt(failures, client, { later });
  if (credentials.kind === 'token' && tokensEqual(credentials.token, expected)) {
    // If giving the attempt back fails, it just expires.
    return finishLater('release an authentication attempt', () => attempt.release(), later);
  }
  await attempt.confirm();
  if (credentials.kind === 'token') throw invalid();
  const challenge = bearerChallenge(siteUrl, { code: 'invalid_request', description: credentials.reason });
  throw authChallenge(400, credentials.reason, challenge);
}
