import { bearer, JSON_TYPE, json, type MixKind, type Shot } from './kinds.mts';
import { CONTACT_POOL, OWNER_ADDRESS, OWNER_TOKEN, parkPath, pick } from './setup.mts';

/** The bad requests of the soak's weighted mix (about 2 % in all): each must get its clear 4xx, never a 5xx. */
export const BAD_REQUESTS: [number, MixKind][] = [
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
