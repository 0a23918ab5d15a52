import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SITE_URL, type ServedSite, startServedSite } from '../../support/served-site.ts';

/**
 * docs/contract.md: what is served always names the SITE_URL the server runs with. Prerendered documents
 * carry the SITE_URL of the build, so the served site runs only with that one.
 */
const OWN_PATHS = /^\/(api|docs|parks|widgets|\.well-known)(\/|$)/;

let site: ServedSite;

beforeAll(async () => {
  site = await startServedSite({ env: { SITE_URL: BUILT_SITE_URL, LOCATION_TOKEN: 'site-url-test-token-0123456789' } });
});
afterAll(async () => {
  await site?.stop();
});

/** Every absolute http(s) URL in a text, as written. */
const absoluteUrls = (text: string): URL[] =>
  [...text.matchAll(/https?:\/\/[^\s"'<>)\\`]+/g)].flatMap((match) =>
    URL.canParse(match[0]) ? [new URL(match[0])] : [],
  );

describe('the origin the served site names', () => {
  it.each([
    '/docs/openapi.json',
    '/docs/api/',
    '/.well-known/api-catalog',
    '/.well-known/oauth-protected-resource',
    '/.well-known/agent-skills/index.json',
    '/.well-known/agent-skills/park-wait-times/SKILL.md',
    '/parks/epcot/',
  ])('%s names SITE_URL, and no other origin, for the site own paths', async (pathname) => {
    const response = await fetch(`${site.url}${pathname}`);
    expect(response.status).toBe(200);
    const urls = absoluteUrls(await response.text());
    expect(urls.map((url) => url.origin)).toContain(BUILT_SITE_URL);
    const own = urls.filter((url) => OWN_PATHS.test(url.pathname) || url.origin === new URL(site.url).origin);
    expect(own.filter((url) => url.origin !== BUILT_SITE_URL).map((url) => url.href)).toEqual([]);
  });

  it('names SITE_URL in the WWW-Authenticate challenge of a POST without a token', async () => {
    const response = await fetch(`${site.url}/api/location`, { method: 'POST', body: '{}' });
    await response.arrayBuffer();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${BUILT_SITE_URL}/.well-known/oauth-protected-resource"`,
    );
  });

  it('refuses to serve a build made for another SITE_URL, with a message naming SITE_URL', async () => {
    const other = 'https://elsewhere.example';
    const started = startServedSite({ env: { SITE_URL: other } });
    const failure = await started.then(
      async (served) => {
        await served.stop();
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(failure).toContain('exited with 1 before listening');
    expect(failure).toContain(`SITE_URL=${BUILT_SITE_URL}`);
    expect(failure).toContain(`SITE_URL=${other}`);
  });
});
