import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSiteMismatch } from '../../../scripts/build-record.mts';
import { loadConfig } from '../../../src/platform/config.ts';
import { onNetlify, resolveSiteUrl } from '../../../src/platform/site-url.ts';

const PRODUCTION = 'https://site.netlify.app';
const PREVIEW = 'https://deploy-preview-7--site.netlify.app';

describe('resolveSiteUrl', () => {
  it.each([
    ['nothing set: the local default', {}, undefined, 'http://localhost:4321', 'default'],
    [
      'SITE_URL wins over Netlify',
      { SITE_URL: 'https://own.example', NETLIFY: 'true', URL: PRODUCTION },
      undefined,
      'https://own.example',
      'SITE_URL',
    ],
    ['SITE_URL wins over the build', { SITE_URL: 'https://own.example' }, PREVIEW, 'https://own.example', 'SITE_URL'],
    [
      'an empty SITE_URL counts as unset',
      { SITE_URL: ' ', NETLIFY: 'true', URL: PRODUCTION },
      undefined,
      PRODUCTION,
      'URL',
    ],
    ['the build value in bundled code', { URL: PRODUCTION, SITE_ID: 'abc' }, PREVIEW, PREVIEW, 'build'],
    [
      'Netlify build, production',
      { NETLIFY: 'true', CONTEXT: 'production', URL: PRODUCTION, DEPLOY_PRIME_URL: PREVIEW },
      undefined,
      PRODUCTION,
      'URL',
    ],
    [
      'Netlify build, deploy preview',
      { NETLIFY: 'true', CONTEXT: 'deploy-preview', URL: PRODUCTION, DEPLOY_PRIME_URL: PREVIEW },
      undefined,
      PREVIEW,
      'DEPLOY_PRIME_URL',
    ],
    [
      'Netlify build, branch deploy',
      { NETLIFY: 'true', CONTEXT: 'branch-deploy', URL: PRODUCTION, DEPLOY_PRIME_URL: PREVIEW },
      undefined,
      PREVIEW,
      'DEPLOY_PRIME_URL',
    ],
    [
      "Netlify's CLI (NETLIFY_LOCAL)",
      { NETLIFY_LOCAL: 'true', URL: 'http://localhost:8888' },
      undefined,
      'http://localhost:8888',
      'URL',
    ],
    [
      'a Netlify function at run time (URL, SITE_ID only)',
      { SITE_ID: 'abc', URL: PRODUCTION },
      undefined,
      PRODUCTION,
      'URL',
    ],
    [
      'a stray URL off Netlify is ignored',
      { URL: 'https://unrelated.example' },
      undefined,
      'http://localhost:4321',
      'default',
    ],
  ])('%s', (_case, env, built, value, from) => {
    expect(resolveSiteUrl(env, built)).toEqual({ value, from });
  });

  it('tells Netlify (build, CLI, functions) from elsewhere', () => {
    expect(
      [{ NETLIFY: 'true' }, { NETLIFY_LOCAL: 'true' }, { SITE_NAME: 'site' }, {}, { NETLIFY: 'false' }].map(onNetlify),
    ).toEqual([true, true, true, false, false]);
  });
});

describe('loadConfig and the site origin', () => {
  it("takes SITE_URL from Netlify's URL, as an origin", () => {
    expect(loadConfig({ NETLIFY: 'true', URL: `${PRODUCTION}/` }, undefined).SITE_URL).toBe(PRODUCTION);
  });

  it('names the variable a malformed origin came from', () => {
    expect(() => loadConfig({ NETLIFY: 'true', URL: 'site.netlify.app' }, undefined)).toThrow('SITE_URL (from URL)');
  });
});

describe('buildSiteMismatch', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'site-api-record-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('asks for a build when dist/ has no record, and accepts the recorded origin only', async () => {
    expect(buildSiteMismatch(root, 'http://localhost:4321')).toContain('no record');
    await mkdir(path.join(root, 'dist/server'), { recursive: true });
    await writeFile(path.join(root, 'dist/server/build-site.json'), '{"siteUrl":"https://a.example"}');
    expect(buildSiteMismatch(root, 'https://a.example/')).toBeUndefined();
    expect(buildSiteMismatch(root, 'https://b.example')).toMatch(
      /SITE_URL=https:\/\/a\.example.*SITE_URL=https:\/\/b\.example/,
    );
  });
});
