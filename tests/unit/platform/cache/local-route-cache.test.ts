import { describe, expect, it } from 'vitest';
import localRouteCache, { answerConditional } from '../../../../src/platform/cache/local-route-cache.ts';

const ETAG = '"abc"';
const ok = (headers: Record<string, string> = { ETag: ETAG }) =>
  new Response('{"a":1}', { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });

describe('a conditional GET', () => {
  it.each([
    ['the same tag', '"abc"', 304],
    ['the weak form of the tag', 'W/"abc"', 304],
    ['a list holding the tag', '"x", "abc"', 304],
    ['*', '*', 304],
    ['another tag', '"abd"', 200],
    ['the tag without its quotes', 'abc', 200],
  ])('with If-None-Match naming %s is answered %i', async (_case, condition, status) => {
    const response = answerConditional('GET', { 'if-none-match': condition }, ok());
    expect(response.status).toBe(status);
    expect(await response.text()).toBe(status === 304 ? '' : '{"a":1}');
  });

  it('answers 304 when fetch adds Cache-Control: no-cache to a request with If-None-Match, as it always does', () => {
    const headers = { 'if-none-match': ETAG, 'cache-control': 'no-cache', pragma: 'no-cache' };
    expect(answerConditional('GET', headers, ok()).status).toBe(304);
  });

  it('keeps every header of the 200 on the 304 (ETag, Content-Type, caching, CORS)', () => {
    const response = answerConditional(
      'HEAD',
      { 'if-none-match': ETAG },
      ok({ ETag: ETAG, 'Cache-Control': 'public, max-age=0', 'Access-Control-Allow-Origin': '*' }),
    );
    expect(response.status).toBe(304);
    expect(Object.fromEntries(response.headers)).toEqual({
      etag: ETAG,
      'content-type': 'application/json',
      'cache-control': 'public, max-age=0',
      'access-control-allow-origin': '*',
    });
  });

  it.each([
    ['a POST', 'POST', { 'if-none-match': ETAG }, ok()],
    ['an answer without a validator', 'GET', { 'if-none-match': ETAG }, ok({})],
    ['an error answer', 'GET', { 'if-none-match': '*' }, new Response('{}', { status: 404, headers: { ETag: ETAG } })],
  ])('leaves %s as it is', (_case, method, headers, response) => {
    expect(answerConditional(method, headers, response)).toBe(response);
  });
});

/** A request that counts how often its headers are read (Astro warns when a prerendered page's are). */
class WatchedRequest extends Request {
  headerReads = 0;
  override get headers(): Headers {
    this.headerReads += 1;
    return super.headers;
  }
}

describe("the local runtime's route cache provider", () => {
  const logger = { info() {}, warn() {}, error() {} };
  async function answer(response: Response) {
    const request = new WatchedRequest('http://localhost/api/photo-feed', { headers: { 'If-None-Match': ETAG } });
    const answered = await localRouteCache({}).onRequest?.(
      { request, url: new URL(request.url), logger },
      async () => response,
    );
    return { status: answered?.status, headerReads: request.headerReads };
  }

  it("leaves the request's headers unread when the answer has no validator, as a prerendered page's has none", async () => {
    expect(await answer(ok({}))).toEqual({ status: 200, headerReads: 0 });
  });

  it('answers a matching conditional GET with 304 when the answer has a validator', async () => {
    const { status, headerReads } = await answer(ok());
    expect(status).toBe(304);
    expect(headerReads).toBeGreaterThan(0);
  });
});
