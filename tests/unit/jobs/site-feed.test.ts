import { describe, expect, it } from 'vitest';
import { JOB_FIXTURES_DIR, readFixture } from '../../../scripts/fake-job-services.mts';
import { decodeXmlText, parseSiteFeed } from '../../../src/jobs/site-feed.ts';

const FEED_URL = 'https://example.com/feed.json';

describe('reading a JSON Feed', () => {
  const posts = parseSiteFeed(readFixture(JOB_FIXTURES_DIR, 'post-feed.json'), FEED_URL);

  it('keeps the items with a link, oldest first, relative links made absolute', () => {
    expect(posts.map((post) => post.url)).toEqual([
      'https://example.com/posts/hello-world/',
      'https://example.com/posts/single-rider-lines/',
      'https://example.com/posts/rope-drop-strategy/',
      'https://example.com/posts/scheduled-for-tomorrow/',
    ]);
  });

  it('reads id, title, summary (or content_text) and the date with its offset', () => {
    expect(posts[2]).toEqual({
      id: 'https://example.com/posts/rope-drop-strategy/',
      url: 'https://example.com/posts/rope-drop-strategy/',
      title: 'Rope drop strategy (2026 edition) #parks',
      summary: 'Where to be at opening, and why the first 45 minutes matter most.',
      publishedAt: Date.parse('2026-11-20T07:00:00Z'),
    });
    expect(posts[1]?.summary).toBe('They are separate queues with their own waits.');
    expect(posts[0]?.summary).toBeNull();
  });

  it('accepts JSON Feed 1.0 with numeric ids, and drops malformed items', () => {
    const feed = {
      version: 'https://jsonfeed.org/version/1',
      items: [
        { id: 42, url: 'https://example.com/42/', title: 'Forty-two' },
        { id: 43, url: 'javascript:alert(1)', title: 'Not a web link' },
        { url: 'https://example.com/no-id/' },
        'not an object',
      ],
    };
    expect(parseSiteFeed(JSON.stringify(feed), FEED_URL)).toEqual([
      { id: '42', url: 'https://example.com/42/', title: 'Forty-two', summary: null, publishedAt: null },
    ]);
  });

  it('titles an untitled post with the start of its text, or its link', () => {
    const feed = {
      version: 'https://jsonfeed.org/version/1.1',
      items: [
        { id: 'a', url: 'https://example.com/a/', content_text: `A micro post ${'x'.repeat(200)}` },
        { id: 'b', url: 'https://example.com/b/' },
      ],
    };
    const posts = parseSiteFeed(JSON.stringify(feed), FEED_URL);
    // Undated posts keep feed order (newest first), reversed.
    expect(posts.map((post) => post.id)).toEqual(['b', 'a']);
    const [b, a] = posts;
    expect(a?.title).toHaveLength(100);
    expect(a?.title.startsWith('A micro post')).toBe(true);
    expect(b?.title).toBe('https://example.com/b/');
  });

  it('takes a repeated id once', () => {
    const item = { id: 'same', url: 'https://example.com/same/', title: 'Same' };
    const feed = { version: 'https://jsonfeed.org/version/1.1', items: [item, item] };
    expect(parseSiteFeed(JSON.stringify(feed), FEED_URL)).toHaveLength(1);
  });
});

describe('reading an RSS 2.0 feed', () => {
  const posts = parseSiteFeed(readFixture(JOB_FIXTURES_DIR, 'post-feed.rss.xml'), 'https://example.com/rss.xml');

  it('keeps the items with a link or a permalink guid, dated oldest first, undated last', () => {
    expect(posts.map((post) => post.id)).toEqual([
      'https://example.com/posts/guid-only/',
      'post-2026-11-17-fast-and-slow',
      'https://example.com/posts/rope-drop-strategy/',
      'https://example.com/posts/hello-world/',
    ]);
    expect(posts.at(-1)?.publishedAt).toBeNull();
  });

  it('decodes entities, character references and CDATA, and reads the description as text', () => {
    expect(posts[1]).toEqual({
      id: 'post-2026-11-17-fast-and-slow',
      url: 'https://example.com/posts/fast-and-slow/',
      title: 'Fast & slow: lines at "Space" – a chart',
      summary: 'Waits compared hour by hour.',
      publishedAt: Date.parse('2026-11-17T12:00:00Z'),
    });
    expect(posts[2]?.summary).toBe('Where to be at opening, and why the first 45 minutes matter most.');
  });

  it.each([
    ['a DTD (entity expansion)', '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "b">]><rss><channel></channel></rss>'],
    ['an Atom feed', '<feed xmlns="http://www.w3.org/2005/Atom"><entry></entry></feed>'],
    ['an HTML page', '<!doctype html><html><body>Maintenance</body></html>'],
    ['RSS without a channel', '<rss version="2.0"><item><link>https://example.com/</link></item></rss>'],
    ['a truncated document', '<rss version="2.0"><channel><item><link>https://example.com/</link></item>'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseSiteFeed(text, FEED_URL)).toThrow(/post feed/);
  });
});

describe('telling formats apart', () => {
  it.each([
    ['plain text', 'Service Unavailable'],
    ['JSON that is not a feed', '{"items":[]}'],
    ['an unknown feed version', '{"version":"https://jsonfeed.org/version/2","items":[]}'],
    ['broken JSON', '{"version":'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseSiteFeed(text, FEED_URL)).toThrow(/post feed/);
  });

  it('accepts a byte order mark and leading whitespace', () => {
    const text = `\uFEFF  \n${JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', items: [] })}`;
    expect(parseSiteFeed(text, FEED_URL)).toEqual([]);
  });
});

describe('XML character data', () => {
  it.each([
    ['the five entities', '&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;', '<a> & "b" \'c\''],
    ['decimal and hex references', '&#8211; &#x1F3A2;', '– 🎢'],
    ['CDATA verbatim', '<![CDATA[<p>&amp;</p>]]> &amp;', '<p>&amp;</p> &'],
    ['an unknown entity left as it is', '&nbsp;&bogus;', '&nbsp;&bogus;'],
    ['an out-of-range reference left as it is', '&#x110000;', '&#x110000;'],
  ])('decodes %s', (_name, raw, text) => {
    expect(decodeXmlText(raw)).toBe(text);
  });
});
