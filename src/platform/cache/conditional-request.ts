import fresh from 'fresh';

/**
 * The response itself, or its 304 (the same headers, no body: RFC 9110 §15.4.5), as the CDN in
 * front of the site answers a conditional GET or HEAD: a 200 whose validators match
 * `If-None-Match` or `If-Modified-Since` (RFC 9110 §13.1), by `fresh` (as Express and `send`
 * match). Its "never 304 with `Cache-Control: no-cache`" is left out: fetch adds that to every
 * request with `If-None-Match`, which is exactly the revalidation it asks for.
 * `requestHeaders` have lower-case names, as Node or `Object.fromEntries(headers)` gives them.
 */
export function answerConditional(method: string, requestHeaders: fresh.Headers, response: Response): Response {
  if ((method !== 'GET' && method !== 'HEAD') || response.status !== 200) return response;
  const conditions = {
    'if-none-match': requestHeaders['if-none-match'],
    'if-modified-since': requestHeaders['if-modified-since'],
  };
  const validators = {
    etag: response.headers.get('etag') ?? undefined,
    'last-modified': response.headers.get('last-modified') ?? undefined,
  };
  if (!fresh(conditions, validators)) return response;
  void response.body?.cancel();
  return new Response(null, { status: 304, headers: response.headers });
}
