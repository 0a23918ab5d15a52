import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_GZIP_BUDGET } from '../../../scripts/build-widget.mts';
import { PARKS } from '../../../src/wait-times/parks.ts';
import { type ServedSite, startServedSite } from '../../support/served-site.ts';

/** The park pages as the built site serves them; what the widget does on them is for the browser tests. */

let site: ServedSite;

beforeAll(async () => {
  // No upstream is needed: the pages are prerendered and fetch nothing on the server.
  site = await startServedSite({ env: { WAIT_TIMES_UPSTREAM_URL: 'http://127.0.0.1:9' } });
});
afterAll(() => site.stop());

async function page(path: string): Promise<{ status: number; type: string | null; html: string; csp: string | null }> {
  const response = await fetch(new URL(path, site.url));
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    csp: response.headers.get('content-security-policy'),
    html: await response.text(),
  };
}

/** An element by its start tag, whatever attributes Astro adds (scoped styles add `data-astro-cid-…`). */
const tag = (name: string, attribute: string, text = '') =>
  new RegExp(`<${name} ${escapeRegExp(attribute)}[^>]*>${escapeRegExp(text)}`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A page's Content-Security-Policy header, by directive. */
function policyOf(content: string | null): Map<string, string[]> {
  if (!content) throw new Error('no Content-Security-Policy header');
  return new Map(
    content
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

describe('the park pages', () => {
  it('lists the 17 parks at /parks/, each linked to its page', async () => {
    const { status, html } = await page('/parks/');
    expect(status).toBe(200);
    for (const park of PARKS) expect(html).toMatch(tag('a', `href="/parks/${park.slug}/"`, park.name));
  });

  it.each(PARKS.map((park) => [park.slug, park.name]))(
    'serves /parks/%s/ with the widget for that park, its script and the credit',
    async (slug, name) => {
      const { status, type, html } = await page(`/parks/${slug}/`);
      expect(status).toBe(200);
      expect(type).toBe('text/html; charset=utf-8');
      expect(html).toMatch(new RegExp(`<h1[^>]*>${escapeRegExp(name)} wait times</h1>`));
      expect(html).toContain(`<park-waits park="${slug}"`);
      expect(html).toContain('<script src="/widgets/park-waits.js" defer></script>');
      expect(html).toContain('<a href="https://queue-times.com/">Powered by Queue-Times.com</a>');
      expect(html).toMatch(tag('a', `href="/api/wait-times?park=${slug}"`));
    },
  );

  it('links the park list from the home page', async () => {
    const { html } = await page('/');
    expect(html).toMatch(tag('a', 'href="/parks/"'));
  });
});

describe('Content-Security-Policy of HTML pages', () => {
  it.each(['/', '/parks/', '/parks/epcot/', '/parks/volcano-bay', '/no-such-page'])(
    '%s carries a policy header allowing only its own scripts and styles, and no framing',
    async (path) => {
      const { csp } = await page(path);
      const policy = policyOf(csp);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      for (const directive of ['script-src', 'style-src']) {
        const sources = policy.get(directive) ?? [];
        expect(sources[0]).toBe("'self'");
        expect(sources.slice(1).every((source) => source.startsWith("'sha256-"))).toBe(true);
      }
    },
  );
});

describe('the widget script', () => {
  it('is served as JavaScript, not sniffable, and loadable from any site', async () => {
    const response = await fetch(new URL('/widgets/park-waits.js', site.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('customElements.define(TAG, ParkWaits)');
  });

  it('stays under its budget of 15 KB gzipped', async () => {
    const script = Buffer.from(await (await fetch(new URL('/widgets/park-waits.js', site.url))).arrayBuffer());
    expect(gzipSync(script).byteLength).toBeLessThan(WIDGET_GZIP_BUDGET);
  });
});
