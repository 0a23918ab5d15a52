import fresh from 'fresh';

/**
 * Whether a conditional GET or HEAD is answered 304, as the CDN in front of the site does: a 200
 * whose validators match `If-None-Match` or `If-Modified-Since` (RFC 9110 §13.1), by `fresh` (as
 * Express and `send` match). Its "never 304 with `Cache-Control: no-cache`" is left out: fetch adds
 * that to every request with `If-None-Match`, which is exactly the revalidation it asks for.
 * `requestHeaders` have lower-case names, as Node or `Object.fromEntries(headers)` gives them.
 */
export function isNotModified(method: string, requestHeaders: fresh.Headers, status: number, headers: Headers) {
  if ((method !== 'GET' && method !== 'HEAD') || status !== 200) return false;
  const conditions = {
    'if-none-match': requestHeaders['if-none-match'],
    'if-modified-since': requestHeaders['if-modified-since'],
  };
  return fresh(conditions, {
    etag: headers.get('etag') ?? undefined,
    'last-modified': headers.get('last-modified') ?? undefined,
  });
}

/** The response itself, or its 304: the same headers and no body (RFC 9110 §15.4.5). */
export function answerConditional(method: string, requestHeaders: fresh.Headers, response: Response): Response {
  if (!isNotModified(method, requestHeaders, response.status, response.headers)) return response;
  void response.body?.cancel();
  return new Response(null, { status: 304, headers: response.headers });
}
