import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { ConfigError } from '../../../src/platform/errors.ts';
import { findPark, PARKS, parkFromQuery } from '../../../src/wait-times/parks.ts';

// The 17 slugs clients were promised (docs/contract.md), in their published order.
const PROMISED_SLUGS = [
  'magic-kingdom',
  'epcot',
  'hollywood-studios',
  'animal-kingdom',
  'beta-studios-florida',
  'islands-of-adventure',
  'epic-universe',
  'gammaworld-orlando',
  'delta-gardens-tampa',
  'alphaland',
  'california-adventure',
  'beta-studios-hollywood',
  'alphaland-paris',
  'alpha-adventure-world',
  'zetawood',
  'epsilonpark',
  'volcano-bay',
];

describe('the park table', () => {
  it('has exactly the 17 slugs of the spec, each with its own upstream id', () => {
    expect(PARKS.map((park) => park.slug)).toEqual(PROMISED_SLUGS);
    expect(new Set(PARKS.map((park) => park.queueTimesId)).size).toBe(17);
  });

  it.each([
    ['epcot', 5],
    ['alphaland-paris', 4],
    ['alpha-adventure-world', 28],
    ['zetawood', 55],
    ['epsilonpark', 51],
  ])('maps %s to queue-times park %i', (slug, id) => {
    expect(findPark(slug)?.queueTimesId).toBe(id);
  });

  it.each([
    [null, 'missing park'],
    ['', 'missing park'],
    ['EPCOT', 'unknown park'],
    ['epcot ', 'unknown park'],
    ['__proto__', 'unknown park'],
    ['constructor', 'unknown park'],
  ])('parkFromQuery(%j) fails with "%s"', (value, message) => {
    expect(() => parkFromQuery(value)).toThrow(message);
  });
});

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 4321,
      SITE_URL: 'http://localhost:4321',
      DATA_DIR: '.data',
      WAIT_TIMES_UPSTREAM_URL: 'https://queue-times.com',
      LOCATION_STALE_AFTER_MINUTES: 360,
      // The contract's time limits (docs/contract.md).
      BLOBS_DEADLINE_MS: 4000,
      RATE_LIMIT_WAIT_MS: 5000,
    });
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.LOCATION_TOKEN).toBeUndefined();
  });

  it.each([
    ['SMTP_URL', { SMTP_URL: 'nonsense', CONTACT_TO: 'a@example.com', CONTACT_FROM: 'b@example.com' }],
    ['PORT', { PORT: 'eighty' }],
    ['SITE_URL', { SITE_URL: 'example.com' }],
    ['WAIT_TIMES_UPSTREAM_URL', { WAIT_TIMES_UPSTREAM_URL: 'ftp://example.com' }],
    ['NETWORK_TOKEN_EXPIRES_AT', { NETWORK_TOKEN_EXPIRES_AT: 'next week' }],
    ['CONTACT_TO', { SMTP_URL: 'smtp://localhost:25', CONTACT_FROM: 'b@example.com' }],
    // Seconds by mistake: 4 ms would fail every Blobs call.
    ['BLOBS_DEADLINE_MS', { BLOBS_DEADLINE_MS: '4' }],
    ['BLOBS_DEADLINE_MS', { BLOBS_DEADLINE_MS: '4 s' }],
    ['RATE_LIMIT_WAIT_MS', { RATE_LIMIT_WAIT_MS: '90000' }],
  ])('names %s when it is malformed', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it('keeps only the origin of SITE_URL and drops a trailing slash from the upstream URL', () => {
    const config = loadConfig({ SITE_URL: 'https://example.com/', WAIT_TIMES_UPSTREAM_URL: 'http://127.0.0.1:9/' });
    expect(config.SITE_URL).toBe('https://example.com');
    expect(config.WAIT_TIMES_UPSTREAM_URL).toBe('http://127.0.0.1:9');
  });
});
