import fresh from 'fresh';

/** The request headers a conditional GET is decided on, as Node (lower-case names) or `Object.fromEntries(headers)` gives them. */
export type RequestHeaders = fresh.Headers;

/**
 * Whether a conditional GET or HEAD is answered 304, the way the CDN in front of the site does: a
 * 200 whose validators match `If-None-Match` (or `If-Modified-Since`), RFC 9110 §13.1. The matching
 * is `fresh`'s, the package Express and `send` use. Its one extra rule, "never 304 with
 * `Cache-Control: no-cache`", is left out: fetch adds that header to every request that carries
 * `If-None-Match` (https://fetch.spec.whatwg.org/#http-network-or-cache-fetch), and the
 * precondition is exactly the revalidation it asks for (RFC 9111 §5.2.1.4).
 */
export function isNotModified(
  method: string,
  requestHeaders: RequestHeaders,
  status: number,
  headers: Headers,
): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || status !== 200) return false;
  const conditions = {
    'if-none-match': requestHeaders['if-none-match'],
    'if-modified-since': requestHeaders['if-modified-since'],
  };
  if (!conditions['if-none-match'] && !conditions['if-modified-since']) return false;
  return fresh(conditions, {
    etag: headers.get('etag') ?? undefined,
    'last-modified': headers.get('last-modified') ?? undefined,
  });
}

/** The response itself, or its 304: the same headers and no body (RFC 9110 §15.4.5). */
export function answerConditional(method: string, requestHeaders: RequestHeaders, response: Response): Response {
  if (!isNotModified(method, requestHeaders, response.status, response.headers)) return response;
  void response.body?.cancel();
  return new Response(null, { status: 304, headers: response.headers });
}
