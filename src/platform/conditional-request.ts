import fresh from 'fresh';

/** The request headers a conditional GET is decided on, as Node (lower-case names) or `Object.fromEntries(headers)` gives them. */
export type RequestHeaders = fresh.Headers;

/**
 * Answers a conditional GET or HEAD the way the CDN in front of the site does: a 200 whose
 * validators match `If-None-Match` (or `If-Modified-Since`) becomes a 304 with the same headers
 * and no body (RFC 9110 §13.1, §15.4.5). The matching is `fresh`'s, the package Express and
 * `send` use. Its one extra rule, "never 304 with `Cache-Control: no-cache`", is left out: fetch
 * adds that header to every request that carries `If-None-Match` (https://fetch.spec.whatwg.org/#http-network-or-cache-fetch),
 * and the precondition is exactly the revalidation it asks for (RFC 9111 §5.2.1.4).
 */
export function answerConditional(method: string, requestHeaders: RequestHeaders, response: Response): Response {
  if ((method !== 'GET' && method !== 'HEAD') || response.status !== 200) return response;
  const { 'cache-control': _ignored, ...conditions } = requestHeaders;
  if (!fresh(conditions, Object.fromEntries(response.headers))) return response;
  void response.body?.cancel();
  return new Response(null, { status: 304, headers: response.headers });
}
