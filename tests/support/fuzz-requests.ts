import { createECDH, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { FINISHED_DAY, FINISHED_DAY_PARK } from './finished-day.ts';
import type { OpenApi } from './openapi-validator.ts';

/**
 * Generators of HTTP requests for the fuzz test (tests/request/site/fuzz.test.ts): every endpoint,
 * any method, odd query strings and headers, and bodies of every kind and size up to a little
 * over each limit. Where a request is built to have one fate (a valid update from the owner, a
 * body one byte over the limit, a latitude of 90.0001), it says which statuses it must get, so
 * that the boundaries are checked and not only "no 5xx".
 */

/** One request as the fuzz test sends it. */
export interface FuzzRequest {
  method: string;
  /** Path and query, sent unchanged. */
  target: string;
  headers: [string, string][];
  body?: Uint8Array;
  chunked: boolean;
  /** Last octet of the loopback address it comes from: each address is another client. */
  client: number;
  /** What it was generated for, e.g. `POST /api/location` (for the report's distribution). */
  aim: string;
  /** The statuses it must get when the generator knows its fate, and why. */
  expected?: { statuses: number[]; because: string };
  /** A JSON value built to be valid per the document, and the schema (pointer) it must satisfy. */
  documentValid?: { schemaAt: string; value: unknown };
  /** Refused before any route sees it (Node's parser and limits, an invalid `Host`): only `expected` applies. */
  refusedEarly?: true;
}

/** What the generators need to know about the service under test. */
export interface FuzzSetting {
  document: OpenApi;
  /** The origin requests reach (`Host` is its host), e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** SITE_URL of the server. */
  siteUrl: string;
  /** LOCATION_TOKEN of the server. */
  ownerToken: string;
  /** Fix times are generated before this (Unix ms). */
  now: number;
  /** The push service origin the server allows (PUSH_ALLOWED_ORIGINS): valid alerts name it. */
  pushOrigin: string;
  /** Ids of alerts the server holds: a DELETE of one is a 204 (once). */
  alertIds: readonly string[];
}

export const LOCATION_MAX_BYTES = 64 * 1024;
export const CONTACT_MAX_BYTES = 32 * 1024;
export const ALERTS_MAX_BYTES = 4 * 1024;
const EARLIEST_FIX_MS = 946_684_800_000;

const utf8 = (text: string) => new TextEncoder().encode(text);

// ---------------------------------------------------------------------------------------------
// Text

/** Characters from several scripts, emoji (outside the BMP) included, never a control character. */
const printable = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xc0, max: 0x17f }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x400, max: 0x4ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x4e00, max: 0x4fff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x1f600, max: 0x1f64f }) },
);
const printableChar = printable.map((codePoint) => String.fromCodePoint(codePoint));

/** Printable text of `minLength` to `maxLength` code points, spaces inside but none at either end. */
const printableText = (minLength: number, maxLength: number) =>
  fc
    .array(fc.oneof({ weight: 8, arbitrary: printableChar }, { weight: 1, arbitrary: fc.constant(' ') }), {
      minLength,
      maxLength,
    })
    .map((chars) => {
      const text = chars.join('');
      // Spaces at the ends are trimmed by the service: keep the length exact by replacing them.
      return text.replace(/^ /, 'a').replace(/ $/, 'z');
    });

/** Any string, controls and lone surrogates included (JSON escapes them). */
const anyString = fc.string({ unit: 'binary', maxLength: 40 });

/** A header value Node will send: visible ASCII, spaces, tabs and Latin-1. */
const headerValue = fc
  .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(9)), {
    maxLength: 60,
  })
  .map((codes) => String.fromCharCode(...codes).trim());

/** `arbitrary` once in `n` times, else null. */
const oneIn = <T>(n: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/);

// ---------------------------------------------------------------------------------------------
// Methods

/** Methods Node's HTTP parser knows, beyond the usual ones; and tokens it does not know (answered 400 by Node). */
const ODD_METHODS = [
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'COPY',
  'LOCK',
  'SEARCH',
  'REPORT',
  'PURGE',
  'QUERY',
  'LINK',
  'M-SEARCH',
];
const UNKNOWN_METHODS = ['FOO', 'BREW', 'GETS', 'X-CUSTOM'];

const methodFor = (main: readonly string[]) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...main) },
    { weight: 4, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_METHODS) },
    { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_METHODS) },
  );

// ---------------------------------------------------------------------------------------------
// Query strings

const percentEncodedText = fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent);
const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9-]{0,20}$/) },
  { weight: 2, arbitrary: percentEncodedText },
  // Sent raw: characters a URL parser percent-encodes, and `%` that starts no valid escape.
  { weight: 1, arbitrary: fc.constantFrom('"<>', '{}|\\^`', "'", '%', '%Z1', '%E2%82', '%FF', '%00', '%%41', '+%20+') },
  // Long, but within Node's 16 KiB request head however many there are (see oversizedHead).
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 3000 }).map((n) => 'q'.repeat(n)) },
);
const queryKey = fc.oneof(
  fc.constantFrom('park', 'x', 'q', 'access_token', 'callback', 'format', '__proto__', 'park[]', 'PARK'),
  fc.stringMatching(/^[a-z_]{1,10}$/),
);

/** A query string (with its `?`, or empty): any keys, repeated keys, odd values. */
const anyQuery = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 4 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('?', '?&', '?=', '?==&&', '?#fragment', '?a=1#b=2') },
);

// ---------------------------------------------------------------------------------------------
// Headers any request may carry

const acceptHeader = fc.constantFrom(
  'application/json',
  'text/html',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  '*/*',
  'application/json;q=0, text/html',
  'image/png',
  'text/html;q=abc',
  '',
);
const ifNoneMatch = fc.constantFrom('*', '"abc"', 'W/"abc"', '"a", "b"', 'garbage', '""');

/** Headers that change nothing the oracle knows about, but that the service must survive. */
const neutralHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    acceptHeader.map((v): [string, string] => ['Accept', v]),
    ifNoneMatch.map((v): [string, string] => ['If-None-Match', v]),
    fc.constantFrom('gzip', 'br', 'identity;q=0', '*').map((v): [string, string] => ['Accept-Encoding', v]),
    fc
      .constantFrom('OwnTracks/2.4.12', 'Mozilla/5.0', 'curl/8.5.0', '')
      .map((v): [string, string] => ['User-Agent', v]),
    fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999-').map((v): [string, string] => ['Range', v]),
    fc.tuple(token, headerValue).map(([name, value]): [string, string] => [`X-${name}`, value]),
  ),
  { maxLength: 3 },
);

/** A `Host` that is not the server's own, now and then: valid ones must change nothing, invalid ones are a 400. */
const oddHost = fc.constantFrom(
  'example.com',
  '[::1]:8080',
  'x'.repeat(300),
  '',
  'a b',
  '[',
  'a/b',
  'ex@mple',
  '%2F',
  'h:99999',
);
const INVALID_HOSTS = ['', 'a b', '[', 'a/b', 'ex@mple', '%2F', 'h:99999'];

// ---------------------------------------------------------------------------------------------
// Bodies

/** A body and what the service must make of it. */
interface Body {
  bytes: Uint8Array;
  /** `valid`/`invalid` when built to be one (by the document's rules), else unknown. */
  verdict: 'valid' | 'invalid' | 'unknown';
  /** For a valid JSON body: the value the document must accept. */
  value?: unknown;
}

const json = (value: unknown, verdict: Body['verdict']): Body => ({
  bytes: utf8(JSON.stringify(value)),
  verdict,
  ...(verdict === 'valid' ? { value } : {}),
});

/** A JSON object padded with an ignored member to exactly `size` bytes (or as close as it can be). */
function paddedTo(base: Record<string, unknown>, size: number): Uint8Array {
  const bare = utf8(JSON.stringify({ ...base, pad: '' })).byteLength;
  return utf8(JSON.stringify({ ...base, pad: 'p'.repeat(Math.max(0, size - bare)) }));
}

/** Sizes around a limit: exactly at it, one over, a little either side, and anywhere below. */
const sizeAround = (limit: number) =>
  fc.oneof(
    fc.constantFrom(limit, limit + 1, limit - 1),
    fc.integer({ min: limit - 64, max: limit + 64 }),
    fc.integer({ min: 0, max: Math.floor(limit * 1.2) }),
  );

/** Arrays nested `depth` deep inside a member, e.g. `{"x":[[[]]]}` (valid JSON, odd shape). */
const deeplyNested = (extra: Record<string, unknown>) =>
  fc.integer({ min: 1, max: 20_000 }).map((depth): Uint8Array => {
    const head = JSON.stringify(extra).slice(0, -1);
    return utf8(`${head}${head.length > 1 ? ',' : ''}"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  });

/** Bytes that are not UTF-8 (lone continuation bytes, overlongs, surrogates) inside or instead of JSON. */
const invalidUtf8 = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 200 }),
  fc.constantFrom(
    Uint8Array.from([0x7b, 0x22, 0x6c, 0x61, 0x62, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"label":"\xff\xfe"}
    Uint8Array.from([0xc0, 0xaf]),
    Uint8Array.from([0xed, 0xa0, 0x80]),
    Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM + {}
  ),
);

/** Any body, of no particular meaning. */
const junkBody: fc.Arbitrary<Body> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => json(value, 'unknown')),
  invalidUtf8.map((bytes): Body => ({ bytes, verdict: 'unknown' })),
  fc
    .constantFrom('', ' ', 'null', '{', '{"a":}', '[]', '"text"', '1e999', '{"__proto__":{"x":1}}')
    .map((text): Body => ({ bytes: utf8(text), verdict: 'unknown' })),
);

// ---------------------------------------------------------------------------------------------
// Location bodies (POST /api/location)

const pastIso = (now: number) =>
  fc
    .tuple(fc.integer({ min: EARLIEST_FIX_MS, max: now - 60_000 }), fc.constantFrom('Z', '+02:00', '-0700'))
    .map(([ms, zone]) => {
      const iso = new Date(ms).toISOString();
      if (zone === 'Z') return iso;
      const offsetMinutes = zone === '+02:00' ? 120 : -420;
      const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
      return `${local}${zone}`;
    });
const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });
const label = printableText(1, 100);

function locationBodies(setting: FuzzSetting): fc.Arbitrary<Body> {
  const { now } = setting;
  const examples = Object.values(
    requestBodyOf(setting.document, '/api/location')['application/json']?.examples ?? {},
  ).map((example) => example.value);

  const plain = fc
    .record(
      {
        lat: fc.oneof(
          latitude,
          latitude.map((n) => n.toFixed(5)),
        ),
        lon: fc.oneof(
          longitude,
          longitude.map((n) => n.toFixed(5)),
        ),
        label,
        timestamp: fc.oneof(pastIso(now), fc.integer({ min: EARLIEST_FIX_MS, max: now - 60_000 })),
        active: fc.boolean(),
        battery: fc.integer(),
      },
      { requiredKeys: ['lat', 'lon'] },
    )
    .map((value) => json(value, 'valid'));
  const switchOnly = fc.boolean().map((active) => json({ active }, 'valid'));
  const ownTracks = fc
    .record({
      _type: fc.constant('location'),
      lat: latitude,
      lon: longitude,
      tst: fc.integer({ min: EARLIEST_FIX_MS / 1000, max: Math.floor(now / 1000) - 60 }),
      tid: fc.constant('JJ'),
      acc: fc.nat(),
    })
    .map((value) => json(value, 'valid'));
  const ownTracksOther = fc
    .constantFrom('transition', 'waypoint', 'card', 'lwt', 'cmd')
    .map((_type) => json({ _type, tst: 1_700_000_000 }, 'valid'));
  const feature = fc.oneof(
    fc.record({
      type: fc.constant('Feature'),
      geometry: fc.record({ type: fc.constant('Point'), coordinates: fc.tuple(longitude, latitude) }),
      properties: fc.record({ timestamp: pastIso(now), speed: fc.nat() }),
    }),
    fc.constant({ type: 'Feature', geometry: null, properties: { action: 'app_pause' } }),
  );
  const overland = fc
    .record({ locations: fc.array(feature, { maxLength: 5 }), trip: fc.constant({ mode: 'car' }) })
    .map((value) => json(value, 'valid'));

  // Each boundary once on the valid side and once just past it.
  const boundaries = fc.constantFrom<Body>(
    json({ lat: 90, lon: 180 }, 'valid'),
    json({ lat: -90, lon: -180 }, 'valid'),
    json({ lat: 90.0001, lon: 0 }, 'invalid'),
    json({ lat: -90.0001, lon: 0 }, 'invalid'),
    json({ lat: 0, lon: 180.0001 }, 'invalid'),
    json({ lat: '90', lon: '-180.0' }, 'valid'),
    json({ lat: '90.0001', lon: '0' }, 'invalid'),
    json({ lat: 1, lon: 2, label: 'a'.repeat(100) }, 'valid'),
    json({ lat: 1, lon: 2, label: 'a'.repeat(101) }, 'invalid'),
    json({ lat: 1, lon: 2, label: '\u{1F3A1}'.repeat(100) }, 'valid'),
    json({ lat: 1, lon: 2, label: '' }, 'invalid'),
    json({ lat: 1, lon: 2, timestamp: EARLIEST_FIX_MS }, 'valid'),
    json({ lat: 1, lon: 2, timestamp: EARLIEST_FIX_MS - 1 }, 'invalid'),
    json({ lat: 1, lon: 2, timestamp: now + 3_600_000 }, 'invalid'),
    json({ lat: 1, lon: 2, timestamp: '2024-02-02T07:15:49' }, 'invalid'),
    json({ _type: 'location', lat: 1, lon: 2, tst: EARLIEST_FIX_MS / 1000 - 1 }, 'invalid'),
    json({ _type: 'location', lat: 91, lon: 2, tst: 1_700_000_000 }, 'invalid'),
    json({ locations: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [181, 0] } }] }, 'invalid'),
    json({ lat: 1 }, 'invalid'),
    json({ lat: 'north', lon: 2 }, 'invalid'),
    json({ lat: null, lon: 2 }, 'invalid'),
    json([{ lat: 1, lon: 2 }], 'invalid'),
    json('lat=1', 'invalid'),
    json(null, 'invalid'),
    { bytes: utf8('{"lat":1,"lon":2'), verdict: 'invalid' },
    { bytes: new Uint8Array(), verdict: 'invalid' },
  );

  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...examples).map((value) => json(value, 'valid')) },
    { weight: 3, arbitrary: plain },
    { weight: 1, arbitrary: switchOnly },
    { weight: 2, arbitrary: ownTracks },
    { weight: 1, arbitrary: ownTracksOther },
    { weight: 2, arbitrary: overland },
    { weight: 4, arbitrary: boundaries },
    {
      weight: 3,
      // A valid update padded with an ignored member to about the limit: valid when it fits.
      arbitrary: sizeAround(LOCATION_MAX_BYTES).map((size): Body => {
        const bytes = paddedTo({ lat: 45.5, lon: 6.5 }, size);
        return { bytes, verdict: bytes.byteLength > LOCATION_MAX_BYTES ? 'unknown' : 'valid' };
      }),
    },
    {
      weight: 1,
      arbitrary: deeplyNested({ active: true }).map(
        (bytes): Body => ({
          bytes,
          verdict: bytes.byteLength > LOCATION_MAX_BYTES ? 'unknown' : 'valid',
        }),
      ),
    },
    { weight: 3, arbitrary: junkBody },
  );
}

// ---------------------------------------------------------------------------------------------
// Contact bodies (POST /api/contact)

const email = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9](?:[a-z0-9_+-]{0,10}[a-z0-9])?$/),
    fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/),
    fc.stringMatching(/^[a-z]{2,6}$/),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const messageText = fc
  .array(fc.oneof({ weight: 10, arbitrary: printableChar }, fc.constantFrom(' ', '\n', '\t')), {
    minLength: 1,
    maxLength: 300,
  })
  .map((chars) => chars.join('').replace(/^\s+/, 'a').replace(/\s+$/, 'z'));

interface ContactFields {
  name?: unknown;
  email?: unknown;
  message?: unknown;
  website?: unknown;
  [extra: string]: unknown;
}

function contactBodies(setting: FuzzSetting): fc.Arbitrary<{ fields: ContactFields; verdict: Body['verdict'] }> {
  const examples = Object.values(requestBodyOf(setting.document, '/api/contact'))
    .map((media) => media.example)
    .filter((example): example is ContactFields => typeof example === 'object' && example !== null);
  const valid = fc.record(
    {
      name: printableText(1, 100),
      email,
      message: messageText,
      // A filled honeypot is answered as sent and sends nothing: it keeps the mail sink small.
      website: fc.constantFrom('', 'https://spam.example/'),
      subscribe: fc.constant('on'),
    },
    { requiredKeys: ['name', 'email', 'message'] },
  );
  const ok = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello!', website: 'x' };
  const boundaries = fc.constantFrom<{ fields: ContactFields; verdict: Body['verdict'] }>(
    { fields: { ...ok, name: 'n'.repeat(100) }, verdict: 'valid' },
    { fields: { ...ok, name: 'n'.repeat(101) }, verdict: 'invalid' },
    { fields: { ...ok, name: '\u{1F600}'.repeat(100) }, verdict: 'valid' },
    { fields: { ...ok, name: '\u{1F600}'.repeat(101) }, verdict: 'invalid' },
    { fields: { ...ok, message: 'm'.repeat(5000) }, verdict: 'valid' },
    { fields: { ...ok, message: 'm'.repeat(5001) }, verdict: 'invalid' },
    { fields: { ...ok, message: '\u00e9'.repeat(5000) }, verdict: 'valid' },
    { fields: { ...ok, message: ' \n\t ' }, verdict: 'invalid' },
    { fields: { ...ok, name: 'Ada\nLovelace' }, verdict: 'invalid' },
    { fields: { ...ok, name: '' }, verdict: 'invalid' },
    { fields: { ...ok, email: 'not an address' }, verdict: 'invalid' },
    { fields: { ...ok, email: `${'a'.repeat(245)}@example.com` }, verdict: 'invalid' },
    { fields: { ...ok, email: 'ada@localhost' }, verdict: 'invalid' },
    { fields: { name: 'Ada', email: 'ada@example.com' }, verdict: 'invalid' },
    { fields: { ...ok, name: 42 }, verdict: 'invalid' },
    { fields: {}, verdict: 'invalid' },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...examples).map((fields) => ({ fields, verdict: 'valid' as const })) },
    { weight: 4, arbitrary: valid.map((fields) => ({ fields, verdict: 'valid' as const })) },
    { weight: 4, arbitrary: boundaries },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.constantFrom('name', 'email', 'message', 'website', 'x'), fc.oneof(anyString, fc.jsonValue()))
        .map((fields) => ({ fields, verdict: 'unknown' as const })),
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Requests per endpoint

type Headers = [string, string][];

type MediaTypes = Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
type Parameter = { name: string; schema: { enum?: string[] } };

/** The media types of the request body of `POST path`, with their examples. */
function requestBodyOf(document: OpenApi, path: string): MediaTypes {
  const body = document.paths[path]?.post?.requestBody as { content?: MediaTypes } | undefined;
  if (!body?.content) throw new Error(`the document has no request body for POST ${path}`);
  return body.content;
}

/** Adds 429 to the statuses of a request that a per-client limit may stop. */
const orLimited = (statuses: number[]) => [...statuses, 429];

/** Turns path spellings of one resource into the one to send: mostly as documented, sometimes not. */
const spelling = (path: string) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.constant(path) },
    { weight: 1, arbitrary: fc.constant(`${path}/`) },
    // `-` and the letters are unreserved: `%2D` and `%61` name the same path (RFC 3986 §6.2.2.2).
    { weight: 1, arbitrary: fc.constant(path.replace('-', '%2D').replace(/a/, '%61')) },
    { weight: 1, arbitrary: fc.constant(path.replace('/api/', '/api/./')) },
  );

const common = fc.record({
  headers: neutralHeaders,
  host: oneIn(40, oddHost),
  client: fc.oneof(
    { weight: 1, arbitrary: fc.constant(1) },
    { weight: 12, arbitrary: fc.integer({ min: 2, max: 254 }) },
  ),
  chunked: fc.boolean(),
});

const withoutOddHost = common.map((extra) => ({ ...extra, host: null }));

const LOCATION_BODY = '#/paths/~1api~1location/post/requestBody/content';
const CONTACT_BODY = '#/paths/~1api~1contact/post/requestBody/content';

function finish(
  parts: { method: string; target: string; headers: Headers; body?: Uint8Array | undefined; aim: string },
  extra: fc.Arbitrary<{ headers: Headers; host: string | null; client: number; chunked: boolean }> = common,
  expectation?: FuzzRequest['expected'],
  documentValid?: FuzzRequest['documentValid'],
): fc.Arbitrary<FuzzRequest> {
  return extra.map(({ headers, host, client, chunked }) => {
    const request: FuzzRequest = {
      method: parts.method,
      target: parts.target,
      headers: [...parts.headers, ...headers, ...(host === null ? [] : ([['Host', host]] as Headers))],
      ...(parts.body ? { body: parts.body } : {}),
      chunked: chunked && parts.body !== undefined && parts.body.byteLength > 1,
      client,
      aim: parts.aim,
      ...(expectation ? { expected: expectation } : {}),
      ...(documentValid ? { documentValid } : {}),
    };
    if (isUnknownToNode(parts.method)) {
      Object.assign(request, {
        expected: { statuses: [400], because: 'a method Node does not know' },
        refusedEarly: true,
      });
    } else if (host !== null && INVALID_HOSTS.includes(host)) {
      // RFC 9112 §3.2: an invalid Host field value is a 400, whatever the rest says.
      Object.assign(request, { expected: { statuses: [400], because: 'an invalid Host' }, refusedEarly: true });
      delete request.documentValid;
    }
    // fast-check prints counterexamples with this: the request as it goes on the wire.
    return Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
  });
}

const bodyText = (bytes: Uint8Array | undefined) => {
  if (!bytes || bytes.byteLength === 0) return '(none)';
  const text = JSON.stringify(Buffer.from(bytes.subarray(0, 160)).toString('utf8'));
  return `${bytes.byteLength} bytes${bytes.byteLength > 160 ? ', starting' : ''} ${text}`;
};
const shorten = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

/** A request as a reader wants it in a failure: method, target, client, headers, body. */
export function describeRequest(request: FuzzRequest): string {
  return [
    `${request.method} ${shorten(request.target, 200)} from 127.0.0.${request.client}`,
    ...request.headers.map(([name, value]) => `  ${name}: ${shorten(value, 100)}`),
    `  body${request.chunked ? ' (chunked)' : ''}: ${bodyText(request.body)}`,
  ].join('\n');
}

/** The read-only endpoints that take `?park=`, with the same 400/404 rules. */
const PARK_PATHS: readonly string[] = ['/api/wait-times', '/api/wait-times/history'];
/** The read-only endpoints where `park` is optional: absent is every park, empty 400, unknown 404. */
const OPTIONAL_PARK_PATHS: readonly string[] = ['/api/accuracy'];

/** Requests to the documented read-only endpoints, by method. */
function readOnly(path: string, query: fc.Arbitrary<string>, parks: readonly string[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(methodFor(['GET', 'HEAD']), spelling(path), query, oneIn(8, junkBody))
    .chain(([method, spelled, search, body]) => {
      const target = `${spelled}${search}`;
      let expectation: FuzzRequest['expected'];
      const parkRules = PARK_PATHS.includes(path) || OPTIONAL_PARK_PATHS.includes(path);
      if (parkRules && (method === 'GET' || method === 'HEAD') && spelled === path) {
        const park = new URL(target, 'http://fuzz.invalid').searchParams.get('park');
        expectation =
          park === null && OPTIONAL_PARK_PATHS.includes(path)
            ? { statuses: [200, 304], because: 'every park' }
            : park === null || park === ''
              ? { statuses: [400], because: 'no park' }
              : parks.includes(park)
                ? { statuses: [200, 304], because: `${park} is a park` }
                : { statuses: [404], because: `${JSON.stringify(park.slice(0, 40))} is not a park` };
      }
      return finish(
        { method, target, headers: [], body: body?.bytes, aim: `${methodGroup(method, ['GET', 'HEAD'])} ${path}` },
        common,
        expectation,
      );
    });
}

/** Filters of the event feeds that are valid, and ones that are not (400), with how each must be answered. */
const FEED_QUERIES: [string, number[]][] = [
  ['', [200, 304]],
  ['?ride=159&ride=151&type=wait-below&below=20', [200, 304]],
  ['?type=ride-down&type=ride-reopened', [200, 304]],
  ['?below=0', [200, 304]],
  ['?ride=x', [400]],
  ['?type=ride-broken', [400]],
  ['?below=20&below=30', [400]],
  ['?below=481', [400]],
];

/**
 * GET /api/parks/{slug}/events and its `.atom`: a park, or any segment, in the path; filters valid
 * or not, or any query (whose fate the generator does not know).
 */
function eventFeed(template: string, parks: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const slug = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...parks) }, { weight: 1, arbitrary: segment });
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...FEED_QUERIES) },
    { weight: 1, arbitrary: anyQuery.map((search): [string, number[] | null] => [search, null]) },
  );
  return fc
    .tuple(methodFor(['GET', 'HEAD']), slug, query, oneIn(8, junkBody))
    .chain(([method, park, [search, statuses], body]) => {
      const known = parks.includes(park);
      const read = method === 'GET' || method === 'HEAD';
      const expectation =
        read && known && statuses
          ? { statuses, because: `${park} is a park and the filter is ${statuses[0] === 400 ? 'bad' : 'good'}` }
          : read && /^[a-z0-9-]+$/.test(park) && !known
            ? { statuses: [404], because: `${park} is not a park` }
            : undefined;
      const aim = `${methodGroup(method, ['GET', 'HEAD'])} ${template}`;
      const target = `${template.replace('{slug}', park)}${search}`;
      return finish({ method, target, headers: [], body: body?.bytes, aim }, common, expectation);
    });
}

/**
 * `?park=…&date=…[&format=…]` of GET /api/wait-times/days: often the finished day the site holds
 * (finished-day.ts: 200), else a day not finished or not kept (404), a malformed date or format
 * (400), an unknown park (404), or the park rules' own queries.
 */
function daysQuery(parks: readonly string[]): fc.Arbitrary<string> {
  const date = fc.oneof(
    { weight: 4, arbitrary: fc.constant(FINISHED_DAY) },
    { weight: 1, arbitrary: fc.constantFrom('2099-01-01', '2020-02-29', '2026-02-30', '2026-1-5', '') },
    { weight: 1, arbitrary: queryValue },
  );
  const park = fc.oneof(
    { weight: 4, arbitrary: fc.constant(FINISHED_DAY_PARK) },
    { weight: 1, arbitrary: fc.constantFrom(...parks) },
  );
  const format = fc.constantFrom('', '&format=csv', '&format=json', '&format=CSV', '&format=');
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(park, date, format).map(([slug, day, rest]) => `?park=${slug}&date=${day}${rest}`),
    },
    { weight: 2, arbitrary: parkQuery(parks) },
  );
}

/** `?park=`: mostly one of the parks, sometimes almost one, missing, empty or repeated. */
function parkQuery(parks: readonly string[]): fc.Arbitrary<string> {
  const park = fc.constantFrom(...parks);
  const nearly = fc.oneof(
    park.map((slug) => slug.toUpperCase()),
    park.map((slug) => `${slug}%20`),
    park.map((slug) => slug.slice(0, -1)),
    park.map((slug) => `%${slug.charCodeAt(0).toString(16)}${slug.slice(1)}`), // percent-encoded: the same slug
    park.map((slug) => encodeURIComponent(`${slug}\u0301`)),
  );
  return fc.oneof(
    { weight: 6, arbitrary: park.map((slug) => `?park=${slug}`) },
    { weight: 2, arbitrary: nearly.map((slug) => `?park=${slug}`) },
    { weight: 1, arbitrary: fc.tuple(park, queryValue).map(([a, b]) => `?park=${a}&park=${b}`) },
    { weight: 1, arbitrary: fc.tuple(queryValue, park).map(([a, b]) => `?park=${a}&park=${b}`) },
    { weight: 1, arbitrary: fc.tuple(park, anyQuery).map(([slug, rest]) => `?park=${slug}${rest.replace('?', '&')}`) },
    { weight: 2, arbitrary: anyQuery },
  );
}

/** The `Authorization` header of a location update and how the service must take it. */
type Auth = { header?: string; kind: 'owner' | 'none' | 'wrong' | 'malformed' | 'unknown' };

function authorization(ownerToken: string): fc.Arbitrary<Auth> {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant<Auth>({ header: `Bearer ${ownerToken}`, kind: 'owner' }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Auth>(
        { header: `bearer ${ownerToken}`, kind: 'owner' },
        { header: `BEARER   ${ownerToken}`, kind: 'owner' },
        { header: basic(`owner:${ownerToken}`), kind: 'owner' },
        { header: basic(`:${ownerToken}`), kind: 'owner' },
      ),
    },
    { weight: 2, arbitrary: fc.constant<Auth>({ kind: 'none' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Auth>(
        { header: 'Digest username="owner"', kind: 'none' },
        { header: 'Token abc', kind: 'none' },
        { header: '   ', kind: 'none' },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Auth>(
        { header: `Bearer ${ownerToken.toUpperCase()}`, kind: 'wrong' },
        { header: `Bearer ${ownerToken}x`, kind: 'wrong' },
        { header: basic(`owner:${ownerToken.slice(1)}`), kind: 'wrong' },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Auth>(
        { header: 'Bearer', kind: 'malformed' },
        { header: 'Bearer a b', kind: 'malformed' },
        { header: 'Bearer {token}', kind: 'malformed' },
        { header: 'Basic !!!!', kind: 'malformed' },
        { header: basic('no colon'), kind: 'malformed' },
      ),
    },
    { weight: 1, arbitrary: headerValue.map((header): Auth => ({ header, kind: 'unknown' })) },
  );
}

/** A request Content-Type and whether it names JSON, a form, or neither. */
type Declared = { header?: string; kind: 'json' | 'form' | 'other' | 'unknown' };

const contentType = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom<Declared>(
      { header: 'application/json', kind: 'json' },
      { header: 'application/json; charset=utf-8', kind: 'json' },
      { header: 'Application/JSON;charset=UTF-8', kind: 'json' },
      { header: 'application/vnd.owntracks+json', kind: 'json' },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Declared>(
      { header: 'application/x-www-form-urlencoded', kind: 'form' },
      { header: 'application/x-www-form-urlencoded; charset=UTF-8', kind: 'form' },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Declared>(
      { kind: 'other' },
      { header: 'text/plain', kind: 'other' },
      { header: 'text/json', kind: 'other' },
      { header: 'multipart/form-data; boundary=----x', kind: 'other' },
      { header: 'application/jsonx', kind: 'other' },
      { header: 'application/+json', kind: 'other' },
      { header: '', kind: 'other' },
    ),
  },
  { weight: 1, arbitrary: headerValue.map((header): Declared => ({ header, kind: 'unknown' })) },
);

function locationUpdate(setting: FuzzSetting): fc.Arbitrary<FuzzRequest> {
  const { ownerToken } = setting;
  const emptyOwnTracks = fc.constantFrom<Headers>(
    [['User-Agent', 'Owntracks/2.4.12 (Android)']],
    [['X-Limit-U', 'owner']],
  );
  return fc
    .tuple(
      authorization(ownerToken),
      contentType,
      locationBodies(setting),
      fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: anyQuery }),
      oneIn(12, emptyOwnTracks),
      spelling('/api/location'),
    )
    .chain(([auth, declared, body, search, ownTracksEmpty, spelled]) => {
      const headers: Headers = [];
      if (auth.header !== undefined) headers.push(['Authorization', auth.header]);
      if (declared.header !== undefined) headers.push(['Content-Type', declared.header]);
      let bytes: Uint8Array | undefined = body.bytes;
      if (ownTracksEmpty) {
        headers.push(...ownTracksEmpty, ['Content-Length', '0']);
        bytes = undefined;
      }
      const tokenTwice = new URL(search || '/', 'http://fuzz.invalid').searchParams.has('access_token');
      const size = bytes?.byteLength ?? 0;
      let statuses: number[] | undefined;
      let because = '';
      if (spelled !== '/api/location' || auth.kind === 'unknown') statuses = undefined;
      // A token in the query next to any Authorization at all is the token sent twice (RFC 6750 §3.1).
      else if (tokenTwice && auth.header?.trim()) [statuses, because] = [[400], 'access_token and Authorization'];
      else if (auth.kind === 'none') [statuses, because] = [[401], 'no credentials'];
      else if (auth.kind === 'malformed') [statuses, because] = [[400], 'unreadable credentials'];
      else if (auth.kind === 'wrong') [statuses, because] = [[401], 'a wrong token'];
      else if (auth.kind === 'owner') {
        if (ownTracksEmpty) [statuses, because] = [[200], 'an empty OwnTracks post'];
        else if (declared.kind === 'form' || declared.kind === 'other') [statuses, because] = [[415], 'not JSON'];
        else if (declared.kind === 'json' && size > LOCATION_MAX_BYTES) [statuses, because] = [[413], `${size} bytes`];
        else if (declared.kind === 'json' && body.verdict !== 'unknown')
          [statuses, because] = [[body.verdict === 'valid' ? 200 : 400], `a ${body.verdict} update`];
      }
      return finish(
        {
          method: 'POST',
          target: `${spelled}${search}`,
          headers,
          body: bytes,
          aim: 'POST /api/location',
        },
        common,
        statuses ? { statuses: orLimited(statuses), because } : undefined,
        body.verdict === 'valid' && body.value !== undefined && statuses?.includes(200)
          ? { schemaAt: `${LOCATION_BODY}/application~1json/schema`, value: body.value }
          : undefined,
      );
    });
}

function contactMessage(setting: FuzzSetting): fc.Arbitrary<FuzzRequest> {
  const { siteUrl, origin } = setting;
  const originHeader = fc.oneof(
    { weight: 6, arbitrary: fc.constant<{ header?: string; own: boolean }>({ own: true }) },
    { weight: 2, arbitrary: fc.constant({ header: siteUrl, own: true }) },
    { weight: 1, arbitrary: fc.constant({ header: origin, own: true }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { header: 'https://elsewhere.example', own: false },
        { header: 'null', own: false },
        { header: `${siteUrl}/`, own: false },
        { header: siteUrl.toUpperCase(), own: false },
      ),
    },
  );
  const encoding = fc.constantFrom<'json' | 'form'>('json', 'json', 'form');
  return fc
    .tuple(
      contactBodies(setting),
      encoding,
      fc.oneof({ weight: 6, arbitrary: fc.constant<Declared | null>(null) }, { weight: 1, arbitrary: contentType }),
      originHeader,
      oneIn(3, fc.constantFrom(`${siteUrl}/contact/`, `${origin}/about/?contact=old#form`, 'https://evil.example/')),
      oneIn(5, sizeAround(CONTACT_MAX_BYTES)),
      oneIn(
        6,
        fc.oneof(
          junkBody,
          deeplyNested({}).map((bytes): Body => ({ bytes, verdict: 'unknown' })),
        ),
      ),
    )
    .chain(([built, encoded, declaredOverride, originChoice, referer, padTo, junk]) => {
      let fields = built.fields;
      if (padTo !== null) fields = { ...fields, pad: '' };
      const encode = (value: ContactFields): Uint8Array =>
        encoded === 'json'
          ? utf8(JSON.stringify(value))
          : utf8(new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)])).toString());
      let bytes = encode(fields);
      if (padTo !== null) bytes = encode({ ...fields, pad: 'p'.repeat(Math.max(0, padTo - bytes.byteLength)) });
      let verdict = built.verdict;
      // Forms carry text only: a number or an object becomes its text, which may well be valid.
      if (encoded === 'form' && verdict === 'invalid' && typeof fields.name !== 'string') verdict = 'unknown';
      if (junk) [bytes, verdict] = [junk.bytes, 'unknown'];
      const declared: Declared = declaredOverride ?? {
        header: encoded === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
        kind: encoded,
      };
      const headers: Headers = [];
      if (declared.header !== undefined) headers.push(['Content-Type', declared.header]);
      if (originChoice.header !== undefined) headers.push(['Origin', originChoice.header]);
      if (referer !== null) headers.push(['Referer', referer]);

      let statuses: number[] | undefined;
      let because = '';
      const matchesEncoding = declaredOverride === null;
      if (!originChoice.own) [statuses, because] = [[403], 'another site'];
      else if (declared.kind === 'other') [statuses, because] = [[415], 'neither JSON nor a form'];
      else if (declared.kind !== 'unknown' && bytes.byteLength > CONTACT_MAX_BYTES)
        [statuses, because] = [[413], `${bytes.byteLength} bytes`];
      else if (matchesEncoding && verdict === 'invalid') [statuses, because] = [[400], 'an invalid message'];
      else if (matchesEncoding && verdict === 'valid')
        // JSON clients get 200 (or 202 when queued); a browser form gets a page or a 303 back.
        [statuses, because] = [orLimited([200, 202, 303]), 'a valid message'];
      let documentValid: FuzzRequest['documentValid'];
      if (statuses?.includes(200)) {
        const text = new TextDecoder().decode(bytes);
        documentValid =
          encoded === 'json'
            ? { schemaAt: `${CONTACT_BODY}/application~1json/schema`, value: JSON.parse(text) }
            : {
                schemaAt: `${CONTACT_BODY}/application~1x-www-form-urlencoded/schema`,
                value: Object.fromEntries(new URLSearchParams(text)),
              };
      }
      return finish(
        { method: 'POST', target: '/api/contact', headers, body: bytes, aim: 'POST /api/contact' },
        // The server's own origin is "own" only for requests that reach it under its own Host.
        withoutOddHost,
        statuses ? { statuses, because } : undefined,
        documentValid,
      );
    });
}

// ---------------------------------------------------------------------------------------------
// Push alerts (POST /api/alerts, DELETE /api/alerts/{id})

const ALERTS_BODY = '#/paths/~1api~1alerts/post/requestBody/content';
/** Browser keys: real P-256 points, made once. */
const ALERT_KEYS = Array.from({ length: 3 }, () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
});

/** A valid alert on the allowed push service, or one with a single thing wrong (400). */
function alertBodies(setting: FuzzSetting, parks: readonly string[]): fc.Arbitrary<Body> {
  const valid = fc
    .record({
      n: fc.nat(999),
      keys: fc.constantFrom(...ALERT_KEYS),
      park: fc.constantFrom(...parks),
      ride: fc.integer({ min: 1, max: 20_000 }),
      on: fc.constantFrom('reopened', 'below'),
      below: fc.constantFrom(0, 10, 20, 45, 180),
    })
    .map(({ n, keys, park, ride, on, below }) => ({
      subscription: { endpoint: `${setting.pushOrigin}/push/fuzz-${n}`, keys },
      park,
      ride,
      on,
      ...(on === 'below' ? { below } : {}),
    }));
  const broken = fc
    .tuple(
      valid,
      fc.constantFrom<(alert: Record<string, unknown>) => Record<string, unknown>>(
        (alert) => ({ ...alert, subscription: { endpoint: 'http://127.0.0.1:9/push', keys: ALERT_KEYS[0] } }),
        (alert) => ({ ...alert, subscription: { endpoint: 'https://10.0.0.1/push', keys: ALERT_KEYS[0] } }),
        (alert) => ({ ...alert, on: 'below', below: undefined }),
        (alert) => ({ ...alert, below: 181, on: 'below' }),
        (alert) => ({ ...alert, ride: 'Test Track' }),
        (alert) => ({ ...alert, park: 'nowhere' }),
      ),
    )
    .map(([alert, breakIt]) => json(breakIt(alert), 'invalid'));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((alert) => json(alert, 'valid')) },
    { weight: 2, arbitrary: broken },
    {
      weight: 1,
      arbitrary: valid.map((alert) => ({ bytes: paddedTo(alert, ALERTS_MAX_BYTES + 1), verdict: 'unknown' as const })),
    },
    { weight: 1, arbitrary: junkBody },
  );
}

function alertCreation(setting: FuzzSetting, parks: readonly string[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      alertBodies(setting, parks),
      fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    )
    .chain(([body, asJson]) => {
      const headers: Headers = [['Content-Type', asJson ? 'application/json' : 'text/plain']];
      let expectation: FuzzRequest['expected'];
      if (!asJson) expectation = { statuses: [415], because: 'not JSON' };
      else if (body.bytes.byteLength > ALERTS_MAX_BYTES) expectation = { statuses: [413], because: 'over 4 KiB' };
      else if (body.verdict === 'invalid') expectation = { statuses: [400], because: 'an invalid alert' };
      else if (body.verdict === 'valid') expectation = { statuses: orLimited([201]), because: 'a valid alert' };
      const documentValid =
        asJson && body.verdict === 'valid'
          ? { schemaAt: `${ALERTS_BODY}/application~1json/schema`, value: body.value }
          : undefined;
      return finish(
        { method: 'POST', target: '/api/alerts', headers, body: body.bytes, aim: 'POST /api/alerts' },
        common,
        expectation,
        documentValid,
      );
    });
}

/** DELETE of an alert the server holds (204, or 404 once deleted) or of ids it never gave (404). */
function alertCancel(setting: FuzzSetting): fc.Arbitrary<FuzzRequest> {
  const held = setting.alertIds.length > 0 ? fc.constantFrom(...setting.alertIds) : fc.constant('none');
  return fc
    .oneof(
      { weight: 3, arbitrary: held.map((id) => ({ id, statuses: [204, 404] })) },
      {
        weight: 2,
        arbitrary: fc
          .stringMatching(/^[A-Za-z0-9_-]{1,30}$/)
          // `key` is GET /api/alerts/key's path: DELETE there is its 405.
          .map((id) => ({ id, statuses: id === 'key' ? [405] : [404] })),
      },
    )
    .chain(({ id, statuses }) =>
      finish({ method: 'DELETE', target: `/api/alerts/${id}`, headers: [], aim: 'DELETE /api/alerts/{id}' }, common, {
        statuses,
        because: 'an alert id',
      }),
    );
}

/** Any method on /api/location or /api/contact other than the update itself. */
function otherMethods(path: string, main: readonly string[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(methodFor(main), spelling(path), anyQuery, oneIn(4, junkBody))
    .chain(([method, spelled, search, body]) =>
      finish({
        method,
        target: `${spelled}${search}`,
        headers: [],
        body: body?.bytes,
        aim: `${methodGroup(method, main)} ${path}`,
      }),
    );
}

/** Documents and pages the service serves besides the API. */
const DOCUMENTS = [
  '/',
  '/parks/',
  '/parks/epcot/',
  '/docs/api/',
  '/docs/openapi.json',
  '/.well-known/api-catalog',
  '/.well-known/agent-skills/index.json',
  '/.well-known/agent-skills/park-wait-times/SKILL.md',
  '/favicon.svg',
  '/widgets/park-waits.js',
];

const documents = fc
  .tuple(methodFor(['GET', 'HEAD']), fc.constantFrom(...DOCUMENTS), anyQuery)
  .chain(([method, path, search]) =>
    finish({
      method,
      target: `${path}${search}`,
      headers: [],
      aim: `${methodGroup(method, ['GET', 'HEAD'])} documents`,
    }),
  );

/** A path segment: plain, percent-encoded unicode, dot segments, odd but legal characters. */
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9._~-]{1,24}$/) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('..', '.', '', '%2e%2e', '%2F', '%00', '%', '%ZZ', '%C0%AF', ';x=1', '@', ':'),
  },
);
const unknownApi = fc
  .tuple(methodFor(['GET', 'POST']), fc.array(segment, { minLength: 1, maxLength: 4 }), anyQuery, oneIn(3, junkBody))
  .chain(([method, segments, search, body]) =>
    finish({
      method,
      target: `/api/${segments.join('/')}${search}`,
      headers: body ? [['Content-Type', 'application/json']] : [],
      body: body?.bytes,
      aim: 'any /api/<unknown>',
    }),
  );
const unknownPage = fc
  .tuple(
    methodFor(['GET', 'HEAD']),
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('', '/', '.html', '.json'),
    anyQuery,
  )
  .chain(([method, segments, end, search]) =>
    finish({ method, target: `/${segments.join('/')}${end}${search}`, headers: [], aim: 'any /<unknown>' }),
  );
/** Routes Astro adds on its own (image endpoint, server islands). */
const astroInternals = fc
  .tuple(
    methodFor(['GET']),
    fc.constantFrom('/_image', '/_server-islands/x'),
    fc.oneof(
      anyQuery,
      fc.constantFrom(
        '?href=/favicon.svg',
        '?href=/favicon.svg&f=png',
        '?href=/docs/openapi.json&w=10',
        '?href=https://example.com/a.png',
      ),
    ),
  )
  .chain(([method, path, search]) =>
    finish({ method, target: `${path}${search}`, headers: [], aim: 'Astro internals' }),
  );

/** Requests far past what any server takes in its request head (Node: 16 KiB): answered 431. */
const oversizedHead = fc
  .constantFrom('/api/wait-times?park=', '/api/location?x=')
  .chain((path) =>
    finish(
      { method: 'GET', target: `${path}${'y'.repeat(20_000)}`, headers: [], aim: 'oversized request head' },
      withoutOddHost,
      { statuses: [431], because: 'a request line over 16 KiB' },
    ),
  )
  .map((request) => Object.assign(request, { refusedEarly: true as const }));

/** The method as reported: the endpoint's own methods by name, everything else together. */
export function methodGroup(method: string, main: readonly string[]): string {
  if (main.includes(method)) return method;
  if (['OPTIONS', 'HEAD'].includes(method)) return method;
  return 'other methods';
}

/** Every request the fuzz test may send, weighted so that each endpoint gets plenty. */
export function fuzzRequests(setting: FuzzSetting): fc.Arbitrary<FuzzRequest> {
  const parameters = (setting.document.paths['/api/wait-times']?.get?.parameters ?? []) as Parameter[];
  const parks = parameters.find((parameter) => parameter.name === 'park')?.schema.enum ?? [];
  if (parks.length === 0) throw new Error('the document lists no parks for GET /api/wait-times');
  return fc.oneof(
    { weight: 5, arbitrary: readOnly('/api/wait-times', parkQuery(parks), parks) },
    { weight: 6, arbitrary: readOnly('/api/wait-times/history', parkQuery(parks), parks) },
    // Taken from /api/wait-times' share: the total stays, so no endpoint falls under the coverage floor.
    { weight: 4, arbitrary: readOnly('/api/accuracy', parkQuery(parks), parks) },
    // The same: 3 more from /api/wait-times, 1 from the location updates (the 1,000 of `npm test`
    // reach each endpoint at least 1 % of the time with this seed).
    { weight: 3, arbitrary: readOnly('/api/wait-times/days', daysQuery(parks), parks) },
    { weight: 5, arbitrary: locationUpdate(setting) },
    // 5 each, from /api/wait-times and the location updates (a location update sends several
    // requests, a feed one): the total stays.
    { weight: 5, arbitrary: eventFeed('/api/parks/{slug}/events', parks) },
    { weight: 5, arbitrary: eventFeed('/api/parks/{slug}/events.atom', parks) },
    { weight: 5, arbitrary: otherMethods('/api/location', ['GET', 'HEAD']) },
    { weight: 12, arbitrary: contactMessage(setting) },
    { weight: 3, arbitrary: otherMethods('/api/contact', ['POST', 'OPTIONS']) },
    { weight: 5, arbitrary: readOnly('/api/publish-status', anyQuery, parks) },
    { weight: 5, arbitrary: readOnly('/api/professional-network-status', anyQuery, parks) },
    { weight: 3, arbitrary: readOnly('/api/recorder-status', anyQuery, parks) },
    { weight: 6, arbitrary: readOnly('/api/parks', anyQuery, parks) },
    { weight: 5, arbitrary: readOnly('/api/photo-feed', anyQuery, parks) },
    { weight: 5, arbitrary: readOnly('/.well-known/oauth-protected-resource', anyQuery, parks) },
    { weight: 3, arbitrary: alertCreation(setting, parks) },
    { weight: 2, arbitrary: alertCancel(setting) },
    { weight: 4, arbitrary: readOnly('/api/alerts/key', anyQuery, parks) },
    { weight: 5, arbitrary: documents },
    { weight: 5, arbitrary: unknownApi },
    { weight: 4, arbitrary: unknownPage },
    { weight: 1, arbitrary: astroInternals },
    { weight: 1, arbitrary: oversizedHead },
  );
}

/** Methods Node's HTTP parser refuses before any of the service's code runs. */
const isUnknownToNode = (method: string) => UNKNOWN_METHODS.includes(method);
