import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../scripts/fake-http-server.mts';
import { classifyShareAnswer, commentaryFor, MAX_COMMENTARY, postBodyFor } from '../../../src/jobs/network-api.ts';
import type { FeedPost } from '../../../src/jobs/site-feed.ts';

const post: FeedPost = {
  id: 'https://example.com/posts/rope-drop-strategy/',
  url: 'https://example.com/posts/rope-drop-strategy/',
  title: 'Rope drop strategy (2026 edition) #parks',
  summary: 'Be there at 8:30_am; *really*.',
  publishedAt: Date.parse('2026-11-20T07:00:00Z'),
};

describe('the post sent to the posting API', () => {
  it('is a public article post on the main feed, by the configured author', () => {
    expect(postBodyFor('urn:li:person:abc123', post)).toEqual({
      author: 'urn:li:person:abc123',
      commentary: 'Rope drop strategy \\(2026 edition\\) \\#parks\n\nBe there at 8:30\\_am; \\*really\\*.',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      content: {
        article: {
          source: 'https://example.com/posts/rope-drop-strategy/',
          title: 'Rope drop strategy (2026 edition) #parks',
          description: 'Be there at 8:30_am; *really*.',
        },
      },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
  });

  it('escapes every character the "little" text format reserves', () => {
    const text = commentaryFor({ ...post, title: '| { } @ [ ] ( ) < > # \\ * _ ~', summary: null });
    expect(text).toBe('\\| \\{ \\} \\@ \\[ \\] \\( \\) \\< \\> \\# \\\\ \\* \\_ \\~');
  });

  it('stays within the length the API accepts, even after escaping', () => {
    const text = commentaryFor({ ...post, title: 'T', summary: '('.repeat(5000) });
    expect(text.length).toBeLessThanOrEqual(2 * MAX_COMMENTARY);
    expect(text.replace(/\\(.)/g, '$1').length).toBeLessThanOrEqual(MAX_COMMENTARY);
  });
});

describe("reading the posting API's answer", () => {
  it('takes a 201 as shared, with the id from x-restli-id', () => {
    expect(classifyShareAnswer(201, 'urn:li:share:6844785523593134080', '')).toEqual({
      kind: 'shared',
      status: 201,
      networkPostId: 'urn:li:share:6844785523593134080',
    });
  });

  it('takes the recorded 422 DUPLICATE_POST as already shared, naming the existing post', () => {
    expect(classifyShareAnswer(422, null, readFixture('jobs/network-duplicate-post-422.json'))).toEqual({
      kind: 'duplicate',
      status: 422,
      networkPostId: 'urn:li:share:7141138937766391808',
    });
  });

  it.each<[string, number, string, string, boolean]>([
    [
      'an invalid token',
      401,
      readFixture('jobs/network-invalid-token-401.json'),
      'posting API rejected the token (401)',
      true,
    ],
    [
      'a revoked token',
      401,
      readFixture('jobs/network-revoked-token-401.json'),
      'posting API rejected the token (401, REVOKED_ACCESS_TOKEN)',
      true,
    ],
    [
      'a missing permission',
      403,
      '{"status":403,"serviceErrorCode":100,"code":"ACCESS_DENIED","message":"Not enough permissions"}',
      'posting API refused the author or permission (403, ACCESS_DENIED)',
      true,
    ],
    [
      'throttling',
      429,
      '{"status":429,"message":"Resource level throttle limit reached"}',
      'posting API is rate limiting (429)',
      true,
    ],
    ['a server error', 500, '<h1>Internal Server Error</h1>', 'posting API failed (500)', false],
    ['a gateway timeout', 504, '', 'posting API failed (504)', false],
    [
      'a validation error',
      422,
      '{"message":"ERROR :: /## Audit Log Ingestion Lag :: unrecognized field found but not allowed","status":422}',
      'posting API refused the post (422)',
      false,
    ],
    [
      'a bad request',
      400,
      '{"status":400,"code":"ILLEGAL_ARGUMENT","message":"Request body could not be converted to data map"}',
      'posting API refused the post (400, ILLEGAL_ARGUMENT)',
      false,
    ],
  ])('takes %s as refused, without repeating upstream prose', (_name, status, body, message, stopRun) => {
    expect(classifyShareAnswer(status, null, body)).toEqual({ kind: 'refused', status, message, stopRun });
  });
});
