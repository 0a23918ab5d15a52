import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, UnauthorizedError } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import { checkRateLimit, type RateLimit, reserveAttempt } from '../platform/rate-limit.ts';
import type { ProtectedResourceMetadata } from './protected-resource-schemas.ts';

/**
 * Bearer-token protection for the one owner-only operation, following RFC 6750 (and RFC 9728 §5.1
 * for `resource_metadata`). OwnTracks on Android can only send HTTP Basic, so Basic with the token
 * as the password (any user name) is accepted too.
 */

/** Where RFC 9728 metadata lives below the site origin. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
const REALM = 'site-api';

/**
 * The RFC 9728 document. `resource` is the origin exactly as `SITE_URL` gives it (no trailing
 * slash), the identifier every 401's `resource_metadata` URL is built from (§3.1, §3.3).
 */
export function protectedResourceMetadata(siteUrl: string): ProtectedResourceMetadata {
  return {
    resource: siteUrl,
    bearer_methods_supported: ['header'],
    resource_name: 'site-api travel-mode location updates (owner only)',
    resource_documentation: `${siteUrl}/docs/api/`,
  };
}

/** What a request's `Authorization` header (and query) carry. */
export type Credentials =
  /** Nothing we read: no header, or a scheme we do not support (RFC 6750 §3.1: no error code then). */
  | { kind: 'none' }
  | { kind: 'token'; scheme: 'bearer' | 'basic'; token: string }
  /** The request cannot be understood (RFC 6750 §3.1 `invalid_request`). */
  | { kind: 'malformed'; reason: string };

// RFC 9110 §11.1: auth-scheme is a token; credentials follow after one or more spaces.
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/;
// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Reads the credentials of a request without judging them. */
export function readCredentials(request: Request): Credentials {
  const header = request.headers.get('authorization');
  // RFC 6750 §2.3 allows `access_token` in the query; we do not (it ends up in logs). Sent next to a
  // header it is a token sent two ways, which §3.1 calls a malformed request.
  const inQuery = new URL(request.url).searchParams.has('access_token');
  if (header === null || header.trim() === '') return { kind: 'none' };
  if (inQuery) return { kind: 'malformed', reason: 'access token sent in more than one way' };

  const match = CREDENTIALS.exec(header.trim());
  if (!match) return { kind: 'malformed', reason: 'malformed Authorization header' };
  const scheme = (match[1] ?? '').toLowerCase();
  const value = match[2] ?? '';
  if (scheme === 'bearer') {
    if (!B64TOKEN.test(value)) return { kind: 'malformed', reason: 'malformed bearer token' };
    return { kind: 'token', scheme, token: value };
  }
  if (scheme === 'basic') {
    // RFC 7617: base64 of "user-id:password", UTF-8. The user name is not checked.
    if (!BASE64.test(value)) return { kind: 'malformed', reason: 'malformed Basic credentials' };
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'malformed', reason: 'malformed Basic credentials' };
    return { kind: 'token', scheme, token: decoded.slice(colon + 1) };
  }
  return { kind: 'none' };
}

/**
 * Compares a presented token with the expected one in constant time. Both are hashed first, so the
 * comparison runs over two equal-length digests and its time depends on neither token's length.
 */
export function tokensEqual(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export type BearerErrorCode = 'invalid_token' | 'invalid_request';

/**
 * The `WWW-Authenticate` value: `Bearer realm="…"`, the RFC 6750 error when there is one, and the
 * RFC 9728 `resource_metadata` URL. Every value is a quoted-string; the error texts are constants
 * within the characters RFC 6750 §3 allows.
 */
export function bearerChallenge(siteUrl: string, error?: { code: BearerErrorCode; description: string }): string {
  const params: [string, string][] = [['realm', REALM]];
  if (error) params.push(['error', error.code], ['error_description', error.description]);
  params.push(['resource_metadata', `${siteUrl}${PROTECTED_RESOURCE_METADATA_PATH}`]);
  return `Bearer ${params.map(([name, value]) => `${name}=${quoted(value)}`).join(', ')}`;
}

// RFC 9110 §5.6.4: a quoted-string escapes `"` and `\`.
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** 400 with an `invalid_request` challenge: the credentials could not be read (RFC 6750 §3.1). */
export class MalformedCredentialsError extends HttpError {
  constructor(challenge: string, message: string) {
    super(400, message, { headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' } });
  }
}

const INVALID_TOKEN = { code: 'invalid_token', description: 'The access token is invalid' } as const;

/**
 * Lets the request through only with the expected token; otherwise throws the right error:
 * - no token configured: 401, always (nothing can be right);
 * - no credentials (or an unsupported scheme): 401 with a challenge and no error code, or 429 when
 *   the client is over the limit; they guess nothing, so they do not count;
 * - any presented credentials first take one of the client's attempts (`failures`): past the
 *   limit the answer is 429 with `Retry-After` and the token is not even compared, so concurrent
 *   guesses cannot all be evaluated and a right guess over the limit is refused too (an attempt
 *   that finds every slot held by attempts still being compared waits for them, up to 5 s);
 * - then unreadable credentials: 400 `invalid_request`; a wrong token: 401 `invalid_token` (the
 *   attempt stays counted); the right token gives its attempt back.
 * With `later`, what the answer does not depend on (giving the attempt back, the limiter's sweep) is
 * finished after it.
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
  if (expected === undefined) {
    throw credentials.kind === 'none'
      ? new UnauthorizedError(bearerChallenge(siteUrl), 'bearer token required')
      : new UnauthorizedError(bearerChallenge(siteUrl, INVALID_TOKEN), 'invalid token');
  }
  if (credentials.kind === 'none') {
    await checkRateLimit(failures, client, { later });
    throw new UnauthorizedError(bearerChallenge(siteUrl), 'bearer token required');
  }
  const attempt = await reserveAttempt(failures, client, { later });
  if (credentials.kind === 'malformed') {
    await attempt.confirm();
    throw new MalformedCredentialsError(
      bearerChallenge(siteUrl, { code: 'invalid_request', description: credentials.reason }),
      credentials.reason,
    );
  }
  if (!tokensEqual(credentials.token, expected)) {
    await attempt.confirm();
    throw new UnauthorizedError(bearerChallenge(siteUrl, INVALID_TOKEN), 'invalid token');
  }
  // The owner's own requests do not use up attempts; if giving it back fails, it just expires.
  await finishLater('release an authentication attempt', () => attempt.release(), later);
}
