import path from 'node:path';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { loadFunctions } from '../../../server/functions.mts';
import { loadConfig } from '../../../src/platform/config.ts';
import { ConfigError } from '../../../src/platform/errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('the configuration of the jobs and the photo feed', () => {
  it('has defaults for the API bases and version, and nothing else set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PHOTO_FEED_UPSTREAM_URL: 'https://graph.instagram.com',
      NETWORK_API_URL: 'https://api.linkedin.com',
      NETWORK_API_VERSION: '202610',
    });
    for (const name of [
      'PUBLISH_HOOK_URL',
      'NETWORK_FEED_URL',
      'NETWORK_AUTHOR_URN',
      'NETWORK_ACCESS_TOKEN',
    ] as const) {
      expect(config[name]).toBeUndefined();
    }
  });

  it('accepts a full configuration and drops trailing slashes from base URLs', () => {
    const config = loadConfig({
      PUBLISH_HOOK_URL: 'https://api.netlify.com/build_hooks/5c23354f454e1350f8543e78',
      NETWORK_FEED_URL: 'https://example.com/feed.json',
      NETWORK_API_URL: 'http://127.0.0.1:9000/',
      NETWORK_API_VERSION: '202611',
      NETWORK_AUTHOR_URN: 'urn:li:organization:2414183',
      NETWORK_ACCESS_TOKEN: 'token',
      NETWORK_TOKEN_EXPIRES_AT: '2027-01-15T00:00:00Z',
      PHOTO_FEED_UPSTREAM_URL: 'http://127.0.0.1:9001/',
    });
    expect(config.NETWORK_API_URL).toBe('http://127.0.0.1:9000');
    expect(config.PHOTO_FEED_UPSTREAM_URL).toBe('http://127.0.0.1:9001');
  });

  it.each([
    ['PUBLISH_HOOK_URL', 'build-hook-id'],
    ['NETWORK_FEED_URL', 'ftp://example.com/feed.json'],
    ['NETWORK_API_URL', 'api.linkedin.com'],
    ['NETWORK_API_VERSION', '202613'],
    ['NETWORK_API_VERSION', '2026-10'],
    ['NETWORK_AUTHOR_URN', 'person:abc'],
    ['NETWORK_TOKEN_EXPIRES_AT', '2027-01-15'],
  ])('refuses %s=%s at start, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('the scheduled functions', () => {
  it('include the five jobs, each with a schedule the local runtime (croner) and Netlify both read', async () => {
    const functions = await loadFunctions(path.join(ROOT, 'netlify/functions'));
    const schedules = Object.fromEntries(
      functions.flatMap((fn) => ('schedule' in fn.config && fn.config.schedule ? [[fn.name, fn.config.schedule]] : [])),
    );
    expect(schedules).toMatchObject({
      'daily-publish': '@daily',
      'grade-forecasts': '@hourly',
      'network-share': '@hourly',
      'photo-token-refresh': '30 3 * * *',
      'record-waits': '*/5 * * * *',
    });
    const after = new Date('2026-11-21T12:34:56Z');
    const next = (pattern: string) =>
      new Cron(pattern, { paused: true, timezone: 'UTC' }).nextRun(after)?.toISOString();
    expect(next('@daily')).toBe('2026-11-22T00:00:00.000Z');
    expect(next('@hourly')).toBe('2026-11-21T13:00:00.000Z');
    expect(next('30 3 * * *')).toBe('2026-11-22T03:30:00.000Z');
    expect(next('*/5 * * * *')).toBe('2026-11-21T12:35:00.000Z');
  });

  it('are not reachable by URL, as on Netlify', async () => {
    const functions = await loadFunctions(path.join(ROOT, 'netlify/functions'));
    for (const fn of functions.filter((f) => 'schedule' in f.config)) expect(fn.patterns).toEqual([]);
  });
});
