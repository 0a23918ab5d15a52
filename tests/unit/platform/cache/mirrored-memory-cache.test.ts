import { describe, expect, it } from 'vitest';
import provider from '../../../../src/platform/cache/mirrored-memory-cache.ts';

/** A request that counts how often its headers are read (Astro warns when a prerendered page's are). */
class WatchedRequest extends Request {
  headerReads = 0;
  override get headers(): Headers {
    this.headerReads += 1;
    return super.headers;
  }
}

const logger = { info() {}, warn() {}, error() {} };

async function answer(request: WatchedRequest, response: () => Response) {
  const cache = provider({});
  const answered = await cache.onRequest?.({ request, url: new URL(request.url), logger }, async () => response());
  return { status: answered?.status, headerReads: request.headerReads };
}

describe("the local runtime's route cache provider", () => {
  it("leaves a request's headers unread when the answer has no validator, as a prerendered page's has none", async () => {
    const request = new WatchedRequest('http://localhost/docs/openapi.json', { headers: { 'If-None-Match': '"a"' } });
    expect(await answer(request, () => Response.json({ openapi: '3.1.1' }))).toEqual({ status: 200, headerReads: 0 });
  });

  it.each([
    ['the ETag it names', '"a"', 304],
    ['another ETag', '"b"', 200],
  ])('answers a conditional GET naming %s with %i', async (_case, condition, status) => {
    const request = new WatchedRequest('http://localhost/api/photo-feed', { headers: { 'If-None-Match': condition } });
    const result = await answer(request, () => Response.json({ items: [] }, { headers: { ETag: '"a"' } }));
    expect(result.status).toBe(status);
    expect(result.headerReads).toBeGreaterThan(0);
  });
});
