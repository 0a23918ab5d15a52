import { ConfigError } from './errors.ts';
import { resolveSiteUrl } from './site-url.ts';
import * as z from './zod-mini.ts';

/** An empty variable counts as unset (`NAME=` in a .env file or the Netlify UI). */
const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);
const unlessEmpty = <T extends z.core.$ZodType>(schema: T) => z.pipe(z.transform(emptyAsUnset), schema);

const optional = <T extends z.core.$ZodType>(schema: T) => unlessEmpty(z.optional(schema));
/** A string matching `pattern` (`message` otherwise), `fallback` when unset. */
const matching = (pattern: RegExp, message: string, fallback: string) =>
  unlessEmpty(z._default(z.string().check(z.regex(pattern, message)), fallback));

/**
 * A time limit in milliseconds, `fallback` (the contract's value) when unset. From 100 ms (a `4`
 * meant as seconds stops the server rather than giving every call 4 ms) to 60 s, Netlify's limit
 * for a request (https://docs.netlify.com/build/functions/configuration).
 */
const milliseconds = (fallback: number) => {
  const message = 'must be a whole number of milliseconds from 100 to 60000';
  const ms = z.coerce.number().check(z.int(message), z.minimum(100, message), z.maximum(60_000, message));
  return unlessEmpty(z._default(ms, fallback));
};

/** A URL with one of these protocols. */
const optionalUrl = (protocols: string[]) =>
  optional(
    z.string().check(
      z.trim(),
      z.refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
        message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      }),
    ),
  );

/** A URL-valued setting without its trailing slashes, `fallback` when unset. */
const baseUrl = (fallback: string) =>
  z.pipe(
    optionalUrl(['http:', 'https:']),
    z.transform((value) => (value ?? fallback).replace(/\/+$/, '')),
  );

/** Every environment variable the service reads, with its default (README, "Configuration"). */
export const EnvironmentSchema = z.object({
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535)), 4321),
  SITE_URL: z.pipe(
    z.string().check(
      z.refine((value) => URL.canParse(value) && new URL(value).protocol.startsWith('http'), {
        message: 'must be an absolute http(s) URL such as https://example.com',
      }),
    ),
    z.transform((value) => new URL(value).origin),
  ),
  // How many reverse proxies in front of the local server to believe in X-Forwarded-For (server/client-address.mts).
  TRUST_PROXY: z.pipe(
    matching(/^\d{1,2}$/, 'must be a whole number of trusted proxies, 0 (the default) to 99', '0'),
    z.transform(Number),
  ),
  DATA_DIR: z._default(z.string().check(z.minLength(1)), '.data'),
  // The contract's time limits (docs/contract.md, "Every endpoint"): one Blobs call is given up after
  // BLOBS_DEADLINE_MS (src/platform/store.ts); a request waits at most RATE_LIMIT_WAIT_MS for its
  // client's attempts still being decided (src/platform/rate-limit.ts). Set longer only for slow test
  // machines (tests/support/slow-machine.ts).
  BLOBS_DEADLINE_MS: milliseconds(4_000),
  RATE_LIMIT_WAIT_MS: milliseconds(5_000),
  WAIT_TIMES_UPSTREAM_URL: baseUrl('https://queue-times.com'),
  PARK_HOURS_UPSTREAM_URL: baseUrl('https://api.themeparks.wiki/v1'),
  // `off`: the scheduled recorder (netlify/functions/record-waits.mts) asks nothing; visitors' requests still do.
  WAIT_TIMES_RECORDER: z._default(z.enum(['on', 'off']), 'on'),
  // `off`: `npm start` and `npm run serve` run no scheduled function themselves (another instance or
  // `npm run job` from cron does); Netlify runs them by its own schedule whatever this says.
  LOCAL_SCHEDULES: z._default(z.enum(['on', 'off']), 'on'),
  // Sent as `Authorization: Bearer <token>`, so it must be an RFC 6750 b64token.
  LOCATION_TOKEN: optional(
    z
      .string()
      .check(
        z.minLength(16, 'must be at least 16 characters'),
        z.regex(
          /^[A-Za-z0-9\-._~+/]+=*$/,
          'may only contain letters, digits and - . _ ~ + / (then optional = padding)',
        ),
      ),
  ),
  LOCATION_STALE_AFTER_MINUTES: z._default(z.coerce.number().check(z.int(), z.positive()), 360),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  CONTACT_TO: optional(z.email()),
  CONTACT_FROM: optional(z.email()),
  CONTACT_MAILTO: optional(z.email()),
  PHOTO_FEED_ACCESS_TOKEN: optional(z.string()),
  PHOTO_FEED_UPSTREAM_URL: baseUrl('https://graph.instagram.com'),
  PUBLISH_HOOK_URL: optionalUrl(['http:', 'https:']),
  NETWORK_ACCESS_TOKEN: optional(z.string()),
  NETWORK_TOKEN_EXPIRES_AT: optional(z.iso.datetime({ offset: true })),
  NETWORK_FEED_URL: optionalUrl(['http:', 'https:']),
  NETWORK_API_URL: baseUrl('https://api.linkedin.com'),
  // The posting API is versioned by month (`LinkedIn-Version: YYYYMM`); a version is served for about a year.
  NETWORK_API_VERSION: matching(/^20\d{2}(0[1-9]|1[0-2])$/, 'must be a month as YYYYMM, e.g. 202610', '202610'),
  // The author of the shared posts, a URN (RFC 8141) such as `urn:li:person:…` or `urn:li:organization:…`.
  // Web Push (docs/alerts-push.md): the VAPID key pair as `web-push generate-vapid-keys` prints it
  // (URL-safe base64 of the raw P-256 public point and private scalar) and the contact it names.
  VAPID_PUBLIC_KEY: optional(
    z.string().check(z.regex(/^B[A-Za-z0-9_-]{86}$/, 'must be 87 URL-safe base64 characters (a P-256 public point)')),
  ),
  VAPID_PRIVATE_KEY: optional(
    z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'must be 43 URL-safe base64 characters (a P-256 private scalar)')),
  ),
  VAPID_SUBJECT: optionalUrl(['mailto:', 'https:']),
  // Push endpoints beyond the known push services, as origins separated by commas (tests name a local fake).
  PUSH_ALLOWED_ORIGINS: z.pipe(
    optional(z.string()),
    z.transform((value) =>
      (value ?? '')
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    ),
  ),
  NETWORK_AUTHOR_URN: optional(
    z.string().check(z.regex(/^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+$/, 'must be a URN such as urn:li:person:abc123')),
  ),
});

export type Config = z.output<typeof EnvironmentSchema>;

// The origin the build resolved (import.meta.env.SITE in what Vite or scripts/bundle-functions.mts
// bundled); undefined where Node runs the source directly (the local runtime, tests).
const BUILT_SITE_URL: string | undefined = typeof import.meta.env === 'object' ? import.meta.env.SITE : undefined;

/** Parses the environment; a malformed setting throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, built = BUILT_SITE_URL): Config {
  const site = resolveSiteUrl(env, built);
  const result = EnvironmentSchema.safeParse({ ...env, SITE_URL: site.value });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path[0] === 'SITE_URL' && site.from !== 'SITE_URL' ? `SITE_URL (from ${site.from})` : '';
      return `${name || issue.path.join('.')} ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const config = result.data;
  if (config.SMTP_URL && !(config.CONTACT_TO && config.CONTACT_FROM)) {
    throw new ConfigError('Invalid configuration: CONTACT_TO and CONTACT_FROM are required with SMTP_URL');
  }
  const vapid = [config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY, config.VAPID_SUBJECT];
  if (vapid.some(Boolean) && !vapid.every(Boolean)) {
    throw new ConfigError('Invalid configuration: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT go together');
  }
  return config;
}

let cached: { env: string; config: Config } | undefined;
// Netlify's own variables count too: SITE_URL defaults to its address (src/platform/site-url.ts).
const NETLIFY_VARIABLES = ['URL', 'DEPLOY_PRIME_URL', 'CONTEXT', 'NETLIFY', 'NETLIFY_LOCAL', 'SITE_ID', 'SITE_NAME'];
const VARIABLES = [...Object.keys(EnvironmentSchema.shape), ...NETLIFY_VARIABLES];

/** The current configuration, re-read whenever one of its variables changed (tests change them); cheap per request. */
export function getConfig(): Config {
  const key = VARIABLES.map((name) => process.env[name] ?? '\u0000').join('\u0001');
  if (cached?.env !== key) cached = { env: key, config: loadConfig(process.env) };
  return cached.config;
}
