import { PARKS } from '../../src/wait-times/parks.ts';
import { BAD_REQUESTS } from './bad-requests.mts';
import {
  conditional,
  etags,
  locationCheck,
  type MixKind,
  networkStatusCheck,
  photoFeedCheck,
  publishStatusCheck,
  type Shot,
  waitTimesCheck,
} from './kinds.mts';
import { parkPath, pick } from './setup.mts';

let cacheBuster = 0;

/** The weighted mix of `npm run soak`: anonymous readers, pages, documents and some bad requests. */
export const MIX: [number, MixKind][] = [
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
      check: locationCheck,
      checkShare: 0.2,
    },
  ],
  [
    15,
    {
      name: 'GET /api/publish-status',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/publish-status' }),
      check: publishStatusCheck,
      checkShare: 0.2,
    },
  ],
  [
    15,
    {
      name: 'GET /api/professional-network-status',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/professional-network-status' }),
      check: networkStatusCheck,
      checkShare: 0.2,
    },
  ],
  [
    30,
    {
      name: 'GET /api/photo-feed',
      expected: [200, 304],
      make: () => conditional({ method: 'GET', path: '/api/photo-feed' }),
      check: photoFeedCheck,
      checkShare: 0.2,
    },
  ],
  ...BAD_REQUESTS,
];
