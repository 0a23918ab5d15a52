import { type ChildProcess, fork } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { PARKS } from '../src/lib/parks.ts';
import { NetworkStatusSchema, PublishStatusSchema } from '../src/schemas/jobs.ts';
import { LocationSchema } from '../src/schemas/location.ts';
import { PhotoFeedSchema } from '../src/schemas/photo-feed.ts';
import { WaitTimesSchema } from '../src/schemas/wait-times.ts';
import {
  advanceClockOf,
  askChild,
  FAKE_CLOCK,
  fmt,
  MEMORY_PROBE,
  ROOT,
  rssMiB,
  type Served,
  startServed,
} from './served.mts';
import type { FakesReady, FakesStats } from './soak-fakes.mts';

/**
 * `npm run soak [-- --minutes 10 --rate 300 --speed 30 --seed 1]`: the built site as `npm run serve`
 * starts it, every feature configured against local fakes, under mixed traffic for `--minutes`
 * while its clock runs `--speed` times faster than real time; prints per-endpoint figures, server
 * memory over time and a verdict. A measurement, not a test: it exits 0 unless the harness broke.
 */

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    /** Requests per second of the weighted mix (the owner, attackers and contact senders come on top). */
    rate: { type: 'string', default: '300' },
    /** Simulated seconds per real second. */
    speed: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'sample-seconds': { type: 'string', default: '10' },
    /** Writes a V8 CPU profile of the server into this directory (open it in Chrome DevTools). */
    'cpu-prof': { type: 'string' },
    /** Extra Node flags for the server, space-separated (`--node-flags=--max-old-space-size=128`). */
    'node-flags': { type: 'string', default: '' },
  },
});
const positive = (name: keyof typeof args) => {
  const value = Number(args[name]);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
};
const DURATION_MS = positive('minutes') * 60_000;
const RATE = positive('rate');
const SPEED = positive('speed');
const SAMPLE_MS = positive('sample-seconds') * 1000;
const TICK_MS = 250;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Memory figures before this share of the run are warm-up. */
const WARM_UP_SHARE = 1 / 3;
/** Contact sends are healthy again for the last quarter, so that the retry job can empty the outbox. */
const SMTP_OUTAGE = { everyMs: 180_000, firstAtMs: 90_000, lastingMs: 20_000, untilShare: 0.75 };
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_IN_FLIGHT = 256;

const OWNER_TOKEN = 'soak-owner-token-5f0c2a9e41b7d3';
const SITE_URL = 'http://localhost:4321';
const OWNER_ADDRESS = '127.0.0.2';
const GUESSER_ADDRESS = '127.0.3.1';
const SPAMMER_ADDRESS = '127.0.3.2';
/** Wrong-token senders and contact senders come from pools of loopback addresses, one after another. */
const addressPool = (prefix: string, size: number) => Array.from({ length: size }, (_, i) => `${prefix}.${i + 1}`);
const WRONG_TOKEN_POOL = addressPool('127.0.1', 50);
const CONTACT_POOL = addressPool('127.0.2', 100);

// ---------------------------------------------------------------------------------------------
// Randomness (seeded, so a run can be repeated) and the simulated clock as the harness sees it

let seed = Math.floor(Number(args.seed)) >>> 0 || 1;
/** mulberry32 */
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (low: number, high: number) => low + random() * (high - low);

let clockOffsetMs = 0;
/** The server's clock (the harness moves it; an answer may lag one tick behind). */
const simNow = () => Date.now() + clockOffsetMs;
const rotating = (pool: readonly string[]) => {
  let next = 0;
  return () => pool[next++ % pool.length] as string;
};

// ---------------------------------------------------------------------------------------------
// What is sent, and what counts as a right answer

interface Shot {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  localAddress?: string;
}

/** A kind of request: what the report counts it under, and which answers are right. */
interface Kind {
  name: string;
  expected: readonly number[];
  /** Checks a sampled answer with an expected status; returns what is wrong, or null. */
  check?: (status: number, body: Buffer) => string | null;
  /** Share of answers checked (1 = all). */
  checkShare?: number;
}

/** A kind of request of the weighted mix, with how to make one. */
interface MixKind extends Kind {
  make(): Shot;
}

const etags = new Map<string, string>();
/** With a remembered ETag for the path, half the time: a revalidating client. */
const conditional = (shot: Shot): Shot => {
  const etag = etags.get(shot.path);
  if (etag && random() < 0.5) shot.headers = { ...shot.headers, 'If-None-Match': etag };
  return shot;
};

const json = (value: unknown) => JSON.stringify(value);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const JSON_TYPE = { 'Content-Type': 'application/json' };

function schemaCheck(schema: z.ZodType, more?: (value: never) => string | null) {
  return (status: number, body: Buffer): string | null => {
    if (status !== 200) return null;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return 'body is not JSON';
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) return `body does not match its schema: ${parsed.error.issues[0]?.message ?? ''}`;
    return more ? more(parsed.data as never) : null;
  };
}

/** What sampled wait-time answers showed: data age, trends, forecasts. */
const waits = { bodies: 0, maxAgeMs: 0, rides: 0, up: 0, down: 0, forecastMoved: 0 };
const locations = { live: 0, stale: 0 };

const waitTimesCheck = schemaCheck(WaitTimesSchema, (body: z.output<typeof WaitTimesSchema>) => {
  waits.bodies += 1;
  waits.maxAgeMs = Math.max(waits.maxAgeMs, simNow() - body.updatedAt);
  for (const ride of body.rides) {
    waits.rides += 1;
    if (ride.trend === 'up') waits.up += 1;
    if (ride.trend === 'down') waits.down += 1;
    if (ride.forecast !== null && ride.forecast !== ride.wait) waits.forecastMoved += 1;
  }
  return body.rides.length > 0 ? null : 'no rides';
});

const parkPath = () => `/api/wait-times?park=${pick(PARKS).slug}`;
let cacheBuster = 0;

/** The weighted mix: anonymous readers, pages, documents and some bad requests. */
const MIX: [number, MixKind][] = [
  [
    380,
    {
      name: 'GET /api/wait-times',
      expected: [200],
      make: () => ({ method: 'GET', path: parkPath() }),
      check: waitTimesCheck,
      checkShare: 0.05,
    },
  ],
  [
    170,
    {
      name: 'GET /api/wait-times (If-None-Match)',
      expected: [200, 304],
      make: () => {
        const shot: Shot = { method: 'GET', path: parkPath() };
        const etag = etags.get(shot.path);
        if (etag) shot.headers = { 'If-None-Match': etag };
        return shot;
      },
    },
  ],
  [
    15,
    {
      // Tracking parameters (left out of Astro's cache key) and cache busters (each a new entry, until
      // the route cache's 500-entry bound).
      name: 'GET /api/wait-times (unique query)',
      expected: [200],
      make: () => {
        cacheBuster += 1;
        const extra = cacheBuster % 2 === 0 ? `utm_source=soak&utm_id=${cacheBuster}` : `_=${cacheBuster}`;
        return { method: 'GET', path: `${parkPath()}&${extra}` };
      },
    },
  ],
  [10, { name: 'HEAD /api/wait-times', expected: [200], make: () => ({ method: 'HEAD', path: parkPath() }) }],
  [
    10,
    {
      name: 'OPTIONS /api/wait-times (preflight)',
      expected: [204],
      make: () => ({
        method: 'OPTIONS',
        path: parkPath(),
        headers: { Origin: 'https://blog.example', 'Access-Control-Request-Method': 'GET' },
      }),
    },
  ],
  [40, { name: 'GET /', expected: [200, 304], make: () => conditional({ method: 'GET', path: '/' }) }],
  [15, { name: 'GET /parks/', expected: [200, 304], make: () => conditional({ method: 'GET', path: '/parks/' }) }],
  [
    50,
    {
      name: 'GET /parks/{slug}/',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: `/parks/${pick(PARKS).slug}/` }),
    },
  ],
  [
    25,
    {
      name: 'GET /widgets/park-waits.js',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/widgets/park-waits.js' }),
    },
  ],
  [
    25,
    { name: 'GET /docs/api/', expected: [200, 304], make: () => conditional({ method: 'GET', path: '/docs/api/' }) },
  ],
  [
    20,
    {
      name: 'GET /docs/openapi.json',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/docs/openapi.json' }),
    },
  ],
  [
    10,
    {
      name: 'GET /.well-known/api-catalog',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/.well-known/api-catalog' }),
    },
  ],
  [
    8,
    {
      name: 'GET /.well-known/agent-skills/…',
      expected: [200, 304],
      make: () =>
        conditional({
          method: 'GET',
          path: pick(['/.well-known/agent-skills/index.json', '/.well-known/agent-skills/park-wait-times/SKILL.md']),
        }),
    },
  ],
  [
    5,
    {
      name: 'GET /.well-known/oauth-protected-resource',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/.well-known/oauth-protected-resource' }),
    },
  ],
  [
    60,
    {
      name: 'GET /api/location',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/location' }),
      check: schemaCheck(LocationSchema, (body: z.output<typeof LocationSchema>) => {
        locations[body.status] += 1;
        return null;
      }),
      checkShare: 0.2,
    },
  ],
  [
    15,
    {
      name: 'GET /api/publish-status',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/publish-status' }),
      check: schemaCheck(PublishStatusSchema),
      checkShare: 0.2,
    },
  ],
  [
    15,
    {
      name: 'GET /api/professional-network-status',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/professional-network-status' }),
      check: schemaCheck(NetworkStatusSchema),
      checkShare: 0.2,
    },
  ],
  [
    30,
    {
      name: 'GET /api/photo-feed',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/photo-feed' }),
      check: schemaCheck(PhotoFeedSchema, (body: z.output<typeof PhotoFeedSchema>) =>
        body.configured && body.items.length > 0 ? null : 'configured feed answered without items',
      ),
      checkShare: 0.2,
    },
  ],
  // Bad requests, about 2 % in all.
  [
    2,
    {
      name: 'bad: GET /api/wait-times (no park)',
      expected: [400],
      make: () => ({ method: 'GET', path: '/api/wait-times' }),
    },
  ],
  [
    3,
    {
      name: 'bad: GET /api/wait-times?park=<unknown>',
      expected: [404],
      make: () => ({
        method: 'GET',
        path: `/api/wait-times?park=${pick(['atlantis', 'EPCOT', 'epcot%20', 'x'.repeat(200)])}`,
      }),
    },
  ],
  [
    2,
    {
      name: 'bad: GET unknown path',
      expected: [404],
      make: () => ({
        method: 'GET',
        path: pick(['/api/nope', '/parks/atlantis/', '/wp-login.php', '/.well-known/oauth-authorization-server']),
      }),
    },
  ],
  [
    3,
    {
      name: 'bad: wrong method',
      expected: [405],
      make: () =>
        pick<Shot>([
          { method: 'DELETE', path: parkPath() },
          { method: 'POST', path: parkPath(), headers: JSON_TYPE, body: '{}' },
          { method: 'GET', path: '/api/contact' },
          { method: 'PUT', path: '/api/location', headers: { ...JSON_TYPE, ...bearer(OWNER_TOKEN) }, body: '{}' },
          { method: 'POST', path: '/api/photo-feed', headers: JSON_TYPE, body: '{}' },
        ]),
    },
  ],
  [
    2,
    {
      name: 'bad: body too large',
      expected: [413],
      make: () =>
        pick<Shot>([
          {
            method: 'POST',
            path: '/api/location',
            headers: { ...JSON_TYPE, ...bearer(OWNER_TOKEN) },
            body: json({ lat: 1, lon: 2, label: 'x'.repeat(70 * 1024) }),
            localAddress: OWNER_ADDRESS,
          },
          {
            method: 'POST',
            path: '/api/contact',
            headers: JSON_TYPE,
            body: json({ name: 'Big', email: 'big@example.org', message: 'x'.repeat(40 * 1024) }),
            localAddress: pick(CONTACT_POOL),
          },
        ]),
    },
  ],
  [
    2,
    {
      name: 'bad: unsupported media type',
      expected: [415],
      make: () =>
        pick<Shot>([
          {
            method: 'POST',
            path: '/api/location',
            headers: { 'Content-Type': 'text/plain', ...bearer(OWNER_TOKEN) },
            body: 'lat=1&lon=2',
            localAddress: OWNER_ADDRESS,
          },
          {
            method: 'POST',
            path: '/api/contact',
            headers: { 'Content-Type': 'text/plain' },
            body: 'hello',
            localAddress: pick(CONTACT_POOL),
          },
        ]),
    },
  ],
  [
    3,
    {
      name: 'bad: invalid body',
      expected: [400],
      make: () =>
        pick<Shot>([
          {
            method: 'POST',
            path: '/api/location',
            headers: { ...JSON_TYPE, ...bearer(OWNER_TOKEN) },
            body: '{"lat": 35.6,',
            localAddress: OWNER_ADDRESS,
          },
          {
            method: 'POST',
            path: '/api/location',
            headers: { ...JSON_TYPE, ...bearer(OWNER_TOKEN) },
            body: json({ lat: 123.4, lon: 2 }),
            localAddress: OWNER_ADDRESS,
          },
          {
            method: 'POST',
            path: '/api/contact',
            headers: JSON_TYPE,
            body: json({ name: '', email: 'not an address', message: '' }),
            localAddress: pick(CONTACT_POOL),
          },
        ]),
    },
  ],
  [
    1,
    {
      name: 'bad: cross-site contact form',
      expected: [403],
      make: () => ({
        method: 'POST',
        path: '/api/contact',
        headers: { ...JSON_TYPE, Origin: 'https://evil.example' },
        body: json({ name: 'Mallory', email: 'm@evil.example', message: 'hi' }),
        localAddress: pick(CONTACT_POOL),
      }),
    },
  ],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);
function pickFromMix(): MixKind {
  let left = random() * TOTAL_WEIGHT;
  for (const [weight, kind] of MIX) {
    left -= weight;
    if (left < 0) return kind;
  }
  return (MIX.at(-1) as [number, MixKind])[1];
}

// The owner's phone: a trip with a pin update every `OWNER_EVERY_MS`, in the three formats.
const OWNER_EVERY_MS = 2000;
const trip = { lat: 35.6762, lon: 139.6503 };
let ownerPosts = 0;
function ownerShot(): { kind: string; shot: Shot } {
  ownerPosts += 1;
  trip.lat += between(-0.01, 0.01);
  trip.lon += between(-0.01, 0.01);
  const now = simNow();
  const lat = Number(trip.lat.toFixed(6));
  const lon = Number(trip.lon.toFixed(6));
  const post = (headers: Record<string, string>, body: unknown): Shot => ({
    method: 'POST',
    path: '/api/location',
    headers: { ...JSON_TYPE, ...headers },
    body: json(body),
    localAddress: OWNER_ADDRESS,
  });
  // Travel mode off now and then, and on again with the next update.
  if (ownerPosts % 60 === 0) return { kind: 'travel off', shot: post(bearer(OWNER_TOKEN), { active: false }) };
  if (ownerPosts % 60 === 1) {
    return {
      kind: 'plain',
      shot: post(bearer(OWNER_TOKEN), {
        active: true,
        lat,
        lon,
        label: 'Tokyo',
        timestamp: new Date(now).toISOString(),
      }),
    };
  }
  const roll = random();
  if (roll < 0.35) {
    return {
      kind: 'plain',
      shot: post(bearer(OWNER_TOKEN), {
        latitude: String(lat),
        longitude: String(lon),
        label: 'Tokyo',
        timestamp: new Date(now).toISOString(),
      }),
    };
  }
  if (roll < 0.65) {
    const android = random() < 0.5;
    const seconds = Math.floor(now / 1000);
    return {
      kind: 'OwnTracks',
      shot: post(
        android
          ? { ...basic('phone', OWNER_TOKEN), 'User-Agent': 'Owntracks-Android/2.5.3' }
          : { ...bearer(OWNER_TOKEN), 'X-Limit-U': 'owner', 'X-Limit-D': 'phone' },
        { _type: 'location', lat, lon, tst: seconds, created_at: seconds, batt: 53, acc: 12, tid: 'ph', conn: 'm' },
      ),
    };
  }
  if (roll < 0.72) {
    return {
      kind: 'OwnTracks other',
      shot: post(bearer(OWNER_TOKEN), { _type: 'transition', event: 'enter', tst: Math.floor(now / 1000) }),
    };
  }
  if (roll < 0.9) {
    const points = 1 + Math.floor(random() * 50);
    const locations = Array.from({ length: points }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon + i * 1e-4, lat - i * 1e-4] },
      properties: {
        timestamp: new Date(now - (points - 1 - i) * 5000).toISOString(),
        altitude: 40,
        speed: 1.2,
        horizontal_accuracy: 10,
        motion: ['walking'],
        battery_level: 0.8,
        wifi: '',
      },
    }));
    return { kind: 'Overland', shot: post(bearer(OWNER_TOKEN), { locations }) };
  }
  // A fix the phone queued while offline, arriving after newer ones.
  const late = now - between(10, 60) * MINUTE;
  return {
    kind: 'out of order',
    shot: post(bearer(OWNER_TOKEN), { lat: lat - 0.05, lon: lon - 0.05, timestamp: new Date(late).toISOString() }),
  };
}
const ownerKinds = new Map<string, Kind>(
  ['plain', 'OwnTracks', 'OwnTracks other', 'Overland', 'out of order', 'travel off'].map((name) => [
    name,
    { name: `POST /api/location (owner, ${name})`, expected: [200] },
  ]),
);

/** Requests on their own fixed schedule (rate limits are per simulated time and per client). */
interface Stream {
  everyMs: number;
  next(): { kind: Kind; shot: Shot };
}

const nextWrongTokenAddress = rotating(WRONG_TOKEN_POOL);
const wrongToken: Kind = {
  name: 'POST /api/location (wrong token, varied clients)',
  expected: [401],
};
const noCredentials: Kind = {
  name: 'POST /api/location (no credentials)',
  expected: [401],
};
const malformed: Kind = {
  name: 'POST /api/location (malformed Authorization)',
  expected: [400],
};
const guesser: Kind = {
  name: 'POST /api/location (token guesser, one client)',
  expected: [401, 429],
};

const nextContactAddress = rotating(CONTACT_POOL);
const contactJson: Kind = {
  name: 'POST /api/contact (JSON)',
  expected: [200, 202],
};
const contactForm: Kind = {
  name: 'POST /api/contact (HTML form)',
  expected: [303],
};
const contactHoneypot: Kind = {
  name: 'POST /api/contact (honeypot)',
  expected: [200],
};
const contactSpammer: Kind = {
  name: 'POST /api/contact (one client over the limit)',
  expected: [200, 202, 429],
};
let contactNumber = 0;
const contactBody = () => {
  contactNumber += 1;
  return {
    name: `Visitor ${contactNumber}`,
    email: `visitor${contactNumber}@example.org`,
    message: `Hello! Message ${contactNumber} from the soak. Which park has the shortest waits tonight?`,
  };
};

const STREAMS: Stream[] = [
  {
    everyMs: OWNER_EVERY_MS,
    next: () => {
      const { kind, shot } = ownerShot();
      return { kind: ownerKinds.get(kind) as Kind, shot };
    },
  },
  {
    everyMs: 2000,
    next: () => {
      const localAddress = nextWrongTokenAddress();
      const roll = random();
      const body = json({ lat: 48.8566, lon: 2.3522 });
      if (roll < 0.6) {
        const headers = random() < 0.5 ? bearer(`guess-${Math.floor(random() * 1e9)}`) : basic('x', 'guess');
        return {
          kind: wrongToken,
          shot: { method: 'POST', path: '/api/location', headers: { ...JSON_TYPE, ...headers }, body, localAddress },
        };
      }
      if (roll < 0.8) {
        return {
          kind: noCredentials,
          shot: { method: 'POST', path: '/api/location', headers: JSON_TYPE, body, localAddress },
        };
      }
      return {
        kind: malformed,
        shot: {
          method: 'POST',
          path: '/api/location',
          headers: { ...JSON_TYPE, Authorization: 'Bearer two words' },
          body,
          localAddress,
        },
      };
    },
  },
  {
    everyMs: 2000,
    next: () => ({
      kind: guesser,
      shot: {
        method: 'POST',
        path: '/api/location',
        headers: { ...JSON_TYPE, ...bearer(`guess-${Math.floor(random() * 1e9)}`) },
        body: json({ lat: 1, lon: 1 }),
        localAddress: GUESSER_ADDRESS,
      },
    }),
  },
  {
    everyMs: 4000,
    next: () => {
      const localAddress = nextContactAddress();
      const roll = random();
      if (roll < 0.6) {
        return {
          kind: contactJson,
          shot: { method: 'POST', path: '/api/contact', headers: JSON_TYPE, body: json(contactBody()), localAddress },
        };
      }
      if (roll < 0.9) {
        return {
          kind: contactForm,
          shot: {
            method: 'POST',
            path: '/api/contact',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
              Origin: SITE_URL,
              Referer: `${SITE_URL}/contact/`,
            },
            body: new URLSearchParams({ ...contactBody(), website: '' }).toString(),
            localAddress,
          },
        };
      }
      return {
        kind: contactHoneypot,
        shot: {
          method: 'POST',
          path: '/api/contact',
          headers: JSON_TYPE,
          body: json({ ...contactBody(), website: 'https://spam.example' }),
          localAddress,
        },
      };
    },
  },
  {
    everyMs: 10_000,
    next: () => ({
      kind: contactSpammer,
      shot: {
        method: 'POST',
        path: '/api/contact',
        headers: JSON_TYPE,
        body: json(contactBody()),
        localAddress: SPAMMER_ADDRESS,
      },
    }),
  },
];

// ---------------------------------------------------------------------------------------------
// Sending and measuring

class KindStats {
  count = 0;
  statuses = new Map<number, number>();
  latencies: number[] = [];
  networkErrors = new Map<string, number>();
  unexpected = 0;
  serverErrors = 0;
  badBodies = 0;
  examples: string[] = [];
  readonly kind: Kind;
  constructor(kind: Kind) {
    this.kind = kind;
  }
  get errors() {
    return [...this.networkErrors.values()].reduce((a, b) => a + b, 0) + this.unexpected + this.badBodies;
  }
  example(text: string) {
    if (this.examples.length < 3) this.examples.push(text);
  }
}

const stats = new Map<string, KindStats>();
const statsOf = (kind: Kind) => {
  let entry = stats.get(kind.name);
  if (!entry) {
    entry = new KindStats(kind);
    stats.set(kind.name, entry);
  }
  return entry;
};
/** The current sampling window: latencies and errors of all requests. */
let interval = { latencies: [] as number[], errors: 0, requests: 0 };
let inFlight = 0;
let skipped = 0;
let sent = 0;

// With a timeout of its own, the agent honours the server's `Keep-Alive: timeout=5` hint and retires
// idle sockets before the server closes them (without one, Node's agent ignores the hint, and a
// request sent just as the server closes an idle socket fails with ECONNRESET: the client's race).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: REQUEST_TIMEOUT_MS });
let target: { host: string; port: number };

function send(kind: Kind, shot: Shot): void {
  if (inFlight >= MAX_IN_FLIGHT) {
    skipped += 1;
    return;
  }
  inFlight += 1;
  sent += 1;
  const entry = statsOf(kind);
  const started = performance.now();
  let settled = false;
  const settle = (outcome: { status: number; body: Buffer } | { error: string }) => {
    if (settled) return;
    settled = true;
    inFlight -= 1;
    const latency = performance.now() - started;
    entry.count += 1;
    interval.requests += 1;
    if ('error' in outcome) {
      entry.networkErrors.set(outcome.error, (entry.networkErrors.get(outcome.error) ?? 0) + 1);
      entry.example(`${shot.method} ${shot.path}: ${outcome.error}`);
      interval.errors += 1;
      return;
    }
    const { status, body } = outcome;
    entry.latencies.push(latency);
    interval.latencies.push(latency);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    if (status >= 500) entry.serverErrors += 1;
    if (!kind.expected.includes(status)) {
      entry.unexpected += 1;
      interval.errors += 1;
      entry.example(`${shot.method} ${shot.path} → ${status} ${body.toString('utf8').slice(0, 160)}`);
      return;
    }
    if (kind.check && random() < (kind.checkShare ?? 1)) {
      const problem = kind.check(status, body);
      if (problem) {
        entry.badBodies += 1;
        interval.errors += 1;
        entry.example(`${shot.method} ${shot.path} → ${status}: ${problem}`);
      }
    }
  };
  const headers: Record<string, string> = { ...shot.headers };
  if (shot.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(shot.body));
  const request = http.request(
    {
      host: target.host,
      port: target.port,
      method: shot.method,
      path: shot.path,
      headers,
      agent,
      ...(shot.localAddress ? { localAddress: shot.localAddress } : {}),
      timeout: REQUEST_TIMEOUT_MS,
    },
    (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const etag = response.headers.etag;
        if (response.statusCode === 200 && typeof etag === 'string' && shot.method === 'GET')
          etags.set(shot.path, etag);
        settle({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      response.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    },
  );
  request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
  request.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
  request.end(shot.body);
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);

// ---------------------------------------------------------------------------------------------
// Memory, disk and the fakes

interface MemoryUsage {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** heapUsed right after the newest major collection (null before the first). */
  heapAfterMajorGc: number | null;
  /** Server CPU time since the previous sample, in % of one core. */
  cpuPercent: number;
  /** Server event loop delay since the previous sample. */
  loop: { p99Ms: number; maxMs: number };
  /** Garbage collection since the previous sample. */
  gc: { pauses: number; pauseMs: number; maxPauseMs: number; majors: number };
}

interface Sample {
  atMs: number;
  simulated: number;
  rssMiB: number | undefined;
  heap: MemoryUsage | undefined;
  blobs: { bytes: number; keys: number };
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  inFlight: number;
  /** The harness's own event loop delay (it adds to every latency it measures). */
  harnessLoopMaxMs: number;
}

const MiB = 1024 * 1024;

interface BlobsUsage {
  /** Bytes on disk, values and metadata. */
  bytes: number;
  /** Stored keys (each is a value file, plus a metadata file when it has metadata). */
  keys: number;
  /** Keys by store and first key segment, e.g. `wait-times/history`. */
  byStore: Map<string, number>;
}

/** What the embedded Blobs server keeps on disk (`<DATA_DIR>/blobs/{entries,metadata}/local/site:<store>/<key>`). */
async function blobsUsage(dir: string): Promise<BlobsUsage> {
  const usage: BlobsUsage = { bytes: 0, keys: 0, byStore: new Map() };
  let files: import('node:fs').Dirent[];
  try {
    files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  } catch {
    return usage;
  }
  await Promise.all(
    files.map(async (file) => {
      const relative = path.relative(dir, path.join(file.parentPath, file.name)).split(path.sep);
      let size: number;
      try {
        ({ size } = await stat(path.join(file.parentPath, file.name)));
      } catch {
        return; // deleted while we walked
      }
      usage.bytes += size;
      if (relative[0] !== 'entries') return;
      usage.keys += 1;
      const store = `${(relative[2] ?? '').replace(/^site:/, '')}/${relative[3] ?? ''}`;
      usage.byStore.set(store, (usage.byStore.get(store) ?? 0) + 1);
    }),
  );
  return usage;
}

const memoryOf = (child: ChildProcess) =>
  Promise.race([
    askChild<MemoryUsage & { type: string }>(child, { type: 'memory' }, 'memory-usage'),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000)),
  ]);

function startFakes(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = fork(path.join(ROOT, 'bench/soak-fakes.mts'), [], {
    cwd: ROOT,
    execArgv: ['--import', FAKE_CLOCK],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: FakesReady) => resolve({ child, env: message.env }));
    child.once('exit', (code) => reject(new Error(`the fakes exited with ${code}`)));
  });
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

// ---------------------------------------------------------------------------------------------
// The run

/** Server log lines the soak provokes on purpose. */
const EXPECTED_LOG = [{ pattern: /^contact: message \S+ not sent \(attempt/, why: 'during an SMTP outage' }];
const logLines = { stdout: 0, stderr: 0, problems: new Map<string, number>() };
function onServerLog(line: string, stream: 'stdout' | 'stderr') {
  logLines[stream] += 1;
  // Chatter on stdout: delivered contact mails and honeypots.
  if (stream === 'stdout' && !/\b(warn|error|fail)/i.test(line)) return;
  const key = line
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
    .replace(/\d+/g, 'N')
    .slice(0, 200);
  if (logLines.problems.size < 50 || logLines.problems.has(key)) {
    logLines.problems.set(key, (logLines.problems.get(key) ?? 0) + 1);
  }
}

const fakes = await startFakes();
const env = { ...fakes.env, LOCATION_TOKEN: OWNER_TOKEN, SITE_URL };
let site: Served;
try {
  site = await startServed({
    env,
    preload: [MEMORY_PROBE],
    nodeFlags: [
      ...(args['node-flags'] ?? '').split(' ').filter(Boolean),
      ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : []),
    ],
    onLog: onServerLog,
  });
} catch (error) {
  fakes.child.kill();
  throw error;
}
// If the harness fails half-way, the server and the fakes must not outlive it.
process.on('exit', () => {
  if (site.child.exitCode === null) site.child.kill();
  if (fakes.child.exitCode === null) fakes.child.kill();
});
const url = new URL(site.url);
target = { host: url.hostname, port: Number(url.port) };

async function advance(ms: number) {
  await Promise.all([site.advanceClock(ms), advanceClockOf(fakes.child, ms)]);
  clockOffsetMs += ms;
}
const fakesStats = () => askChild<FakesStats>(fakes.child, { type: 'stats' }, 'fakes-stats');

// Start the simulated run at 23:40 UTC, so that the daily publish job (00:00), the hourly sharing
// job and, in a 10-minute run, the photo token refresh (03:30) all fall inside it.
{
  const now = Date.now();
  let start = Math.floor(now / (24 * HOUR)) * 24 * HOUR + 23 * HOUR + 40 * MINUTE;
  if (start <= now) start += 24 * HOUR;
  await advance(start - now);
}
const simulatedStart = simNow();
const blobsDir = path.join(site.dataDir, 'blobs');

console.info(
  `# soak: ${fmt(DURATION_MS / MINUTE, 1)} min, ${RATE} req/s mix + owner/attacker/contact streams, clock ${SPEED}x (${fmt((DURATION_MS * SPEED) / HOUR, 1)} simulated hours from ${new Date(simulatedStart).toISOString()}), seed ${args.seed}${args['node-flags'] ? `, server flags ${args['node-flags']}` : ''}`,
);
console.info(
  `server ${site.url} (pid ${site.child.pid}), ready in ${fmt(site.readyMs, 0)} ms; data in ${site.dataDir}\n`,
);

// Warm-up, not measured: each page and park once, as a deployment's first visitors would.
const primed = [
  ...PARKS.map((park) => `/api/wait-times?park=${park.slug}`),
  ...PARKS.map((park) => `/parks/${park.slug}/`),
  ...['/', '/parks/', '/docs/api/', '/docs/openapi.json', '/api/location', '/api/photo-feed'],
  ...['/api/publish-status', '/api/professional-network-status', '/.well-known/api-catalog'],
];
for (const pathname of primed) await (await fetch(`${site.url}${pathname}`)).arrayBuffer();

const blobsAtStart = await blobsUsage(blobsDir);
const samples: Sample[] = [];
const runStarted = performance.now();
let lastSampleRequests = 0;
let lastSampleAt = runStarted;
const harnessLoop = monitorEventLoopDelay({ resolution: 10 });
harnessLoop.enable();

async function takeSample(): Promise<Sample> {
  const heap = await memoryOf(site.child);
  const blobs = await blobsUsage(blobsDir);
  const now = performance.now();
  const sorted = interval.latencies.sort((a, b) => a - b);
  const sample: Sample = {
    atMs: now - runStarted,
    simulated: simNow(),
    rssMiB: rssMiB(site.child.pid),
    heap,
    blobs: { bytes: blobs.bytes, keys: blobs.keys },
    requests: interval.requests,
    rps: (sent - lastSampleRequests) / Math.max(0.001, (now - lastSampleAt) / 1000),
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    errors: interval.errors,
    inFlight,
    harnessLoopMaxMs: harnessLoop.max / 1e6,
  };
  harnessLoop.reset();
  lastSampleRequests = sent;
  lastSampleAt = now;
  interval = { latencies: [], errors: 0, requests: 0 };
  samples.push(sample);
  const heapText = heap
    ? `heap ${fmt(heap.heapUsed / MiB)} MiB (after major GC ${heap.heapAfterMajorGc === null ? 'n/a' : fmt(heap.heapAfterMajorGc / MiB)}), GC ${fmt(heap.gc.pauseMs, 0)} ms (max ${fmt(heap.gc.maxPauseMs, 0)}), CPU ${fmt(heap.cpuPercent, 0)} %, loop max ${fmt(heap.loop.maxMs, 0)} ms`
    : 'heap n/a';
  console.info(
    `  ${fmt(sample.atMs / 1000, 0).padStart(4)} s  sim ${new Date(sample.simulated).toISOString().slice(11, 16)}  ${fmt(sample.rps, 0)} req/s  p99 ${fmt(sample.p99, 1)} ms  errors ${sample.errors}  RSS ${sample.rssMiB === undefined ? 'n/a' : fmt(sample.rssMiB)} MiB  ${heapText}  blobs ${fmt(blobs.bytes / 1024, 0)} KiB/${blobs.keys} keys  harness loop max ${fmt(sample.harnessLoopMaxMs, 0)} ms`,
  );
  return sample;
}

await takeSample();

// Traffic: the weighted mix at RATE per second, and the fixed streams.
let issuedFromMix = 0;
const mixTimer = setInterval(() => {
  const due = Math.floor(((performance.now() - runStarted) / 1000) * RATE) - issuedFromMix;
  for (let i = 0; i < due; i++) {
    const kind = pickFromMix();
    send(kind, kind.make());
  }
  issuedFromMix += Math.max(0, due);
}, 10);
const streamTimers = STREAMS.map((stream) =>
  setInterval(() => {
    const { kind, shot } = stream.next();
    send(kind, shot);
  }, stream.everyMs),
);

// The clock: SPEED simulated seconds per real second; a new post every simulated hour; SMTP outages.
let ticking = false;
let smtpFailing = false;
let smtpOutages = 0;
let postsPublished = 0;
const setSmtpFailing = async (failing: boolean) => {
  if (failing === smtpFailing) return;
  smtpFailing = failing;
  if (failing) smtpOutages += 1;
  await askChild(fakes.child, { type: 'smtp-failing', failing }, 'smtp-failing-set');
};
const clockTimer = setInterval(async () => {
  if (ticking) return;
  ticking = true;
  try {
    const hourBefore = Math.floor(simNow() / HOUR);
    await advance(TICK_MS * SPEED);
    if (Math.floor(simNow() / HOUR) !== hourBefore) {
      postsPublished += 1;
      await askChild(fakes.child, { type: 'publish-post' }, 'post-published');
    }
    const elapsed = performance.now() - runStarted;
    const phase = elapsed - SMTP_OUTAGE.firstAtMs;
    const inOutage =
      elapsed < DURATION_MS * SMTP_OUTAGE.untilShare &&
      phase >= 0 &&
      phase % SMTP_OUTAGE.everyMs < SMTP_OUTAGE.lastingMs;
    await setSmtpFailing(inOutage);
  } finally {
    ticking = false;
  }
}, TICK_MS);

let sampling: Promise<unknown> = Promise.resolve();
const sampleTimer = setInterval(() => {
  sampling = takeSample();
}, SAMPLE_MS);

await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
clearInterval(mixTimer);
for (const timer of streamTimers) clearInterval(timer);
clearInterval(sampleTimer);
await sampling;
const drainStarted = performance.now();
while (inFlight > 0 && performance.now() - drainStarted < REQUEST_TIMEOUT_MS) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
await takeSample();
const trafficMs = performance.now() - runStarted;

// The contact outbox: everything answered 200/202 must reach the SMTP server; the retry job runs
// every 5 simulated minutes, so keep the clock going (SMTP healthy) until it has or a minute passed.
await setSmtpFailing(false);
const accepted = (kind: Kind, statuses: number[]) =>
  statuses.reduce((sum, status) => sum + (stats.get(kind.name)?.statuses.get(status) ?? 0), 0);
const contactsAccepted =
  accepted(contactJson, [200, 202]) + accepted(contactForm, [303]) + accepted(contactSpammer, [200, 202]);
const contactsQueued = accepted(contactJson, [202]) + accepted(contactSpammer, [202]);
const outboxDrainStarted = performance.now();
let fakesAtEnd = await fakesStats();
while (fakesAtEnd.distinctMessageIds < contactsAccepted && performance.now() - outboxDrainStarted < 60_000) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  fakesAtEnd = await fakesStats();
}
const outboxDrainMs = performance.now() - outboxDrainStarted;
clearInterval(clockTimer);
while (ticking) await new Promise((resolve) => setTimeout(resolve, 20));

// The job status endpoints as a visitor sees them at the end (past their 60 s cache).
await advance(3 * MINUTE);
const statusBody = async (pathname: string) =>
  (await fetch(`${site.url}${pathname}`)).json() as Promise<Record<string, unknown>>;
const [publishStatus, networkStatus, photoFeed] = await Promise.all([
  statusBody('/api/publish-status'),
  statusBody('/api/professional-network-status'),
  statusBody('/api/photo-feed'),
]);
const blobsAtEnd = await blobsUsage(blobsDir);
const finalRss = rssMiB(site.child.pid);
agent.destroy();
const stopStarted = performance.now();
const exitCode = await site.stop();
const stopMs = performance.now() - stopStarted;
fakes.child.send({ type: 'stop' });
await new Promise((resolve) => {
  fakes.child.once('exit', resolve);
  setTimeout(() => {
    fakes.child.kill();
    resolve(undefined);
  }, 3000).unref();
});

// ---------------------------------------------------------------------------------------------
// Report

const all = [...stats.values()];
const totalRequests = all.reduce((sum, entry) => sum + entry.count, 0);
const totalErrors = all.reduce((sum, entry) => sum + entry.errors, 0);
const totalServerErrors = all.reduce((sum, entry) => sum + entry.serverErrors, 0);
const totalNetwork = all.reduce((sum, entry) => sum + [...entry.networkErrors.values()].reduce((a, b) => a + b, 0), 0);
const allLatencies = all.flatMap((entry) => entry.latencies).sort((a, b) => a - b);

console.info(`\n## Requests by kind (${fmt(trafficMs / 1000, 0)} s of traffic)\n`);
console.info('| request | count | statuses | expected | p50 ms | p99 ms | max ms | errors |');
console.info('|---|---:|---|---|---:|---:|---:|---:|');
for (const entry of all.sort((a, b) => b.count - a.count)) {
  const sorted = entry.latencies.sort((a, b) => a - b);
  const statuses = [...entry.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  const network = [...entry.networkErrors].map(([code, n]) => `${code}: ${n}`);
  console.info(
    `| ${entry.kind.name} | ${entry.count} | ${[...statuses, ...network].join(', ')} | ${entry.kind.expected.join('/')} | ${fmt(quantile(sorted, 0.5), 2)} | ${fmt(quantile(sorted, 0.99), 2)} | ${fmt(sorted.at(-1) ?? Number.NaN, 1)} | ${entry.errors} |`,
  );
}
console.info(
  `| **all** | **${totalRequests}** | | | ${fmt(quantile(allLatencies, 0.5), 2)} | ${fmt(quantile(allLatencies, 0.99), 2)} | ${fmt(allLatencies.at(-1) ?? Number.NaN, 1)} | **${totalErrors}** |`,
);
const problems = all.filter((entry) => entry.examples.length > 0);
if (problems.length > 0) {
  console.info('\nExamples of errors:');
  for (const entry of problems) for (const example of entry.examples) console.info(`- ${entry.kind.name}: ${example}`);
}

console.info('\n## Server memory and Blobs data over time\n');
console.info(
  '| t s | simulated (UTC) | req/s | p50 ms | p99 ms | errors | server CPU % | server loop p99 / max ms | harness loop max ms | RSS MiB | GC pauses ms (max) | heap used / total MiB | heap after major GC MiB | external MiB | Blobs KiB | Blobs keys |',
);
console.info('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const sample of samples) {
  const h = sample.heap;
  console.info(
    `| ${fmt(sample.atMs / 1000, 0)} | ${new Date(sample.simulated).toISOString().slice(0, 16).replace('T', ' ')} | ${fmt(sample.rps, 0)} | ${fmt(sample.p50, 2)} | ${fmt(sample.p99, 2)} | ${sample.errors} | ${h ? fmt(h.cpuPercent, 0) : 'n/a'} | ${h ? `${fmt(h.loop.p99Ms, 0)} / ${fmt(h.loop.maxMs, 0)}` : 'n/a'} | ${fmt(sample.harnessLoopMaxMs, 0)} | ${sample.rssMiB === undefined ? 'n/a' : fmt(sample.rssMiB)} | ${h ? `${fmt(h.gc.pauseMs, 0)} (${fmt(h.gc.maxPauseMs, 0)})` : 'n/a'} | ${h ? `${fmt(h.heapUsed / MiB)} / ${fmt(h.heapTotal / MiB)}` : 'n/a'} | ${h?.heapAfterMajorGc ? fmt(h.heapAfterMajorGc / MiB) : 'n/a'} | ${h ? fmt(h.external / MiB) : 'n/a'} | ${fmt(sample.blobs.bytes / 1024, 0)} | ${sample.blobs.keys} |`,
  );
}

const afterWarmUp = samples.filter((sample) => sample.atMs >= trafficMs * WARM_UP_SHARE);
const series = (value: (sample: Sample) => number | undefined | null) =>
  afterWarmUp.flatMap((sample): [number, number][] => {
    const y = value(sample);
    return y === undefined || y === null ? [] : [[sample.atMs / MINUTE, y]];
  });
const rssSeries = series((sample) => sample.rssMiB);
const heapSeries = series((sample) =>
  (sample.heap?.heapAfterMajorGc ?? null) === null ? null : (sample.heap?.heapAfterMajorGc as number) / MiB,
);
const range = (points: [number, number][]) =>
  points.length === 0 ? Number.NaN : Math.max(...points.map(([, y]) => y)) - Math.min(...points.map(([, y]) => y));
const rssStart = samples[0]?.rssMiB;
/**
 * Lowest and highest RSS in each third of the run. RSS follows V8's heap size, which grows between
 * major collections and shrinks after them, so a peak says little; a leak lifts the lows too.
 */
const rssPerThird = [0, 1, 2].map((third) => {
  const values = samples
    .filter((sample) => sample.atMs >= (trafficMs * third) / 3 && sample.atMs <= (trafficMs * (third + 1)) / 3)
    .flatMap((sample) => (sample.rssMiB === undefined ? [] : [sample.rssMiB]));
  return `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}`;
});
const heapSlope = slope(heapSeries);
const heapMean = heapSeries.reduce((sum, [, y]) => sum + y, 0) / Math.max(1, heapSeries.length);
const measuredMinutes = (trafficMs * (1 - WARM_UP_SHARE)) / MINUTE;
// Flat: at this slope, the retained heap would grow by less than 10 % of itself (or 5 MiB) over the measured part.
const heapFlat = Math.abs(heapSlope * measuredMinutes) < Math.max(5, heapMean * 0.1);
const majorGcs = afterWarmUp.reduce((sum, sample) => sum + (sample.heap?.gc.majors ?? 0), 0);
const heapVerdict = majorGcs < 3 ? 'not judged (fewer than 3 major GCs)' : heapFlat ? 'flat' : 'GROWS';

console.info('\n## Around the traffic\n');
console.info(
  `- Blobs data: ${fmt(blobsAtStart.bytes / 1024, 0)} KiB in ${blobsAtStart.keys} keys at the start, ${fmt(blobsAtEnd.bytes / 1024, 0)} KiB in ${blobsAtEnd.keys} keys at the end: ${[
    ...blobsAtEnd.byStore,
  ]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([store, n]) => `${store} ${n}`)
    .join(', ')}`,
);
console.info(
  `- Upstream: ${fakesAtEnd.upstreamRequests} queue-times requests over ${fakesAtEnd.upstreamPaths} parks in ${fmt((simNow() - simulatedStart) / MINUTE, 0)} simulated minutes (one per park per 5-minute window at most would be ${PARKS.length * Math.ceil((simNow() - simulatedStart) / (5 * MINUTE))}); ${fakesAtEnd.photoMediaRequests} photo feed requests`,
);
console.info(
  `- Sampled wait-time answers: ${waits.bodies} bodies, oldest data ${fmt(waits.maxAgeMs / MINUTE, 1)} simulated minutes; of ${waits.rides} rides ${waits.up} trending up, ${waits.down} down, ${waits.forecastMoved} with a forecast other than the current wait`,
);
console.info(`- Sampled GET /api/location answers: ${locations.live} live, ${locations.stale} stale`);
console.info(
  `- Contact: ${contactsAccepted} messages accepted (${contactsQueued} answered 202 during ${smtpOutages} SMTP outages of ${SMTP_OUTAGE.lastingMs / 1000} s), ${fakesAtEnd.distinctMessageIds} distinct messages received by the SMTP server (${fakesAtEnd.mails} mails) after ${fmt(outboxDrainMs / 1000, 0)} s of draining`,
);
console.info(
  `- Jobs: ${fakesAtEnd.builds} build hook calls (daily publish), ${fakesAtEnd.sharedPosts} posts shared of ${postsPublished + 1} published (hourly), ${fakesAtEnd.photoTokensIssued} photo tokens refreshed (daily at 03:30)`,
);
console.info(
  `- Status at the end: publish ${publishStatus.status} (${(publishStatus.lastRun as { message?: string } | null)?.message ?? 'no run'}); network ${networkStatus.status} (${(networkStatus.lastShare as { message?: string } | null)?.message ?? 'no share'}); photo feed ${(photoFeed.items as unknown[] | undefined)?.length ?? 0} items`,
);
console.info(
  `- Server log: ${logLines.stdout} stdout lines, ${logLines.stderr} stderr lines${logLines.problems.size > 0 ? '; warnings and errors:' : ', no warnings or errors'}`,
);
let unexpectedLogLines = 0;
for (const [line, n] of logLines.problems) {
  const expected = EXPECTED_LOG.find(({ pattern }) => pattern.test(line));
  if (!expected) unexpectedLogLines += n;
  console.info(`  - ${n}× ${line}${expected ? ` (expected: ${expected.why})` : ' (UNEXPECTED)'}`);
}
console.info(`- Harness: ${sent} requests sent, ${skipped} not sent because ${MAX_IN_FLIGHT} were in flight`);
console.info(`- Stop: SIGTERM → exit code ${exitCode} in ${fmt(stopMs, 0)} ms`);

const verdictErrors =
  totalErrors === 0
    ? 'no errors'
    : `${totalErrors} errors (${totalNetwork} network, ${totalServerErrors} 5xx, the rest unexpected statuses or bodies)`;
console.info(
  `\n**Verdict: ${verdictErrors}** in ${totalRequests} requests; ${unexpectedLogLines} unexpected server log lines.`,
);
console.info(
  `**Memory: retained heap ${heapVerdict}**: after the ${majorGcs} major GCs past warm-up (the first ${fmt(WARM_UP_SHARE * 100, 0)} %), ${fmt(heapMean)} MiB on average, slope ${fmt(heapSlope, 2)} MiB/min, range ${fmt(range(heapSeries))} MiB. RSS ${rssStart === undefined ? 'n/a' : fmt(rssStart)} → ${finalRss === undefined ? 'n/a' : fmt(finalRss)} MiB: slope after warm-up ${fmt(slope(rssSeries), 2)} MiB/min, range ${fmt(range(rssSeries))} MiB, per third of the run ${rssPerThird.join(' / ')} MiB.`,
);
const lastThirdKeys = samples.filter((sample) => sample.atMs >= (trafficMs * 2) / 3).map((sample) => sample.blobs.keys);
console.info(
  `**Blobs: ${fmt(blobsAtStart.bytes / 1024, 0)} → ${fmt(blobsAtEnd.bytes / 1024, 0)} KiB, ${blobsAtStart.keys} → ${blobsAtEnd.keys} keys** (${Math.min(...lastThirdKeys)}–${Math.max(...lastThirdKeys)} over the last third of the run).`,
);
process.exit(0);
