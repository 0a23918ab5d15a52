import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../scripts/fake-http-server.mts';
import { parseSiteFeed } from '../../../src/jobs/site-feed.ts';

const FEED_URL = 'https://example.com/feed.json';

describe('reading a JSON Feed', () => {
  const posts = parseSiteFeed(readFixture('jobs/post-feed.json'), FEED_URL);

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

describe('refusing what is not a JSON Feed', () => {
  it.each([
    ['plain text', 'Service Unavailable'],
    ['JSON that is not a feed', '{"items":[]}'],
    ['an unknown feed version', '{"version":"https://jsonfeed.org/version/2","items":[]}'],
    ['broken JSON', '{"version":'],
    ['an RSS document', '<?xml version="1.0"?><rss version="2.0"><channel></channel></rss>'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseSiteFeed(text, FEED_URL)).toThrow(/post feed/);
  });

  it('accepts a byte order mark and leading whitespace', () => {
    const text = `\uFEFF  \n${JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', items: [] })}`;
    expect(parseSiteFeed(text, FEED_URL)).toEqual([]);
  });
});
