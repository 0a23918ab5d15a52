import type http from 'node:http';
import path from 'node:path';

/** How the local runtime reads a request's target and `Host` before routing it. */

// RFC 3986 §3.2.2–3.2.3: `host [ ":" port ]`, the host an IP literal or a reg-name.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[\w\-.~!$&'()*+,;=%]+)(?::\d*)?$/;

/**
 * RFC 9112 §3.2: a request without exactly one `Host`, or with one that is not a valid field
 * value, is answered 400. Node's parser lets any value through; an empty one or one a URL parser
 * cannot read would make Astro's adapter route the request by a path it makes up.
 */
export function hasValidHost(req: http.IncomingMessage): boolean {
  const hosts = req.headersDistinct.host ?? [];
  return hosts.length === 1 && HOST.test(hosts[0] as string) && URL.canParse(`http://${hosts[0]}/`);
}

/**
 * The URL of a request. In origin-form (`/path?query`, RFC 9112 §3.2.1) the path and query are the
 * request-target's and the authority is `Host`'s: a `Host` cannot move the path, and a `//` at
 * the start of the path is not read as an authority. An absolute-form target carries its own
 * authority (§3.2.2). Never throws.
 */
export function requestUrl(target: string, host: string | undefined): URL {
  if (!target.startsWith('/')) return URL.parse(target) ?? new URL('http://localhost/');
  const url = URL.parse(`http://localhost${target}`) ?? new URL('http://localhost/');
  if (host) url.host = host; // a setter: a host it cannot parse leaves the URL as it was
  return url;
}

/**
 * Fetch's `Request` refuses these methods (https://fetch.spec.whatwg.org/#forbidden-method), so
 * Astro's adapter would throw on them. Only TRACE reaches the request listener (Node handles
 * CONNECT apart and its parser does not know TRACK). No route supports it: it is handed on under
 * a name no route knows either, so that each route answers it as any method it does not support
 * (405 with its `Allow`, or the 404 of an unknown path).
 */
const FORBIDDEN_BY_FETCH = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The method a request is routed by. */
export function routableMethod(method: string | undefined): string {
  return FORBIDDEN_BY_FETCH.has(method ?? '') ? 'UNSUPPORTED' : (method ?? 'GET');
}

/**
 * Astro's Node adapter refuses a whole request with a bare text 400 when `decodeURI` cannot read
 * its target: a `%` that starts no escape, or escapes that are not UTF-8. URL parsing takes such
 * a target: a stray `%` stands for itself and bytes that are not UTF-8 read
 * as U+FFFD (URL Standard, percent-decode; Encoding Standard, UTF-8 decode). This writes the target
 * the way it reads (`%` as `%25`, broken sequences as `%EF%BF%BD`), so Astro routes it and the
 * endpoint sees the same query values; a target `decodeURI` reads is returned as it is.
 */
export function readableTarget(target: string): string {
  try {
    decodeURI(target);
    return target;
  } catch {
    return target.replace(/(?:%[0-9A-Fa-f]{2})+|%/g, (run) => {
      if (run === '%') return '%25';
      try {
        decodeURIComponent(run);
        return run;
      } catch {
        const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
        return encodeURIComponent(new TextDecoder().decode(bytes));
      }
    });
  }
}

/**
 * The path of the file a static server sends for a request-target: @astrojs/node normalizes the
 * raw path, then `send` percent-decodes it and normalizes again. Files and their headers are
 * looked up by this path, so `/%2F/`, `//favicon.svg` and `/a//..` get the file they name.
 */
export function servedFilePath(target: string): string {
  const raw = path.posix.normalize(target.split(/[?#]/)[0] || '/');
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {}
  return path.posix.normalize(decoded);
}
