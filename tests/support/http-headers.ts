import { BASE_HEADERS } from '../../src/platform/http.ts';

/**
 * Parsers for the header fields the discovery tests check, so tests compare meanings rather than
 * spellings: `rel=api-catalog` and `REL="API-Catalog"` are the same link (RFC 8288 §3).
 */

export interface Link {
  /** The target, resolved against the request URL (RFC 8288 §3.1). */
  href: string;
  /** Relation types, lower-cased (they compare case-insensitively). */
  rels: string[];
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** Reads `"…"` (with `\` escapes) or a token at the start of `text`; returns the value and the rest. */
function readValue(text: string): [string, string] {
  if (text.startsWith('"')) {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      const char = text[i] as string;
      if (char === '\\') {
        value += text[i + 1] ?? '';
        i++;
      } else if (char === '"') {
        return [value, text.slice(i + 1)];
      } else {
        value += char;
      }
    }
    throw new Error(`unterminated quoted string in ${text}`);
  }
  const token = TOKEN.exec(text)?.[0];
  if (!token) throw new Error(`expected a token or quoted string at ${text}`);
  return [token, text.slice(token.length)];
}

/** `; name=value` parameters until a `,` or the end; returns them, the rest, and each value as written. */
function readParams(input: string): [Record<string, string>, string, Record<string, string>] {
  const params: Record<string, string> = {};
  const raw: Record<string, string> = {};
  let text = input.trimStart();
  while (text.startsWith(';')) {
    text = text.slice(1).trimStart();
    const name = TOKEN.exec(text)?.[0];
    if (!name) throw new Error(`expected a parameter name at ${text}`);
    text = text.slice(name.length).trimStart();
    let value = '';
    let written = '';
    if (text.startsWith('=')) {
      const before = text.slice(1).trimStart();
      [value, text] = readValue(before);
      written = before.slice(0, before.length - text.length);
    }
    // RFC 8288 §3: occurrences after the first of a parameter are ignored.
    if (!(name.toLowerCase() in params)) {
      params[name.toLowerCase()] = value;
      raw[name.toLowerCase()] = written;
    }
    text = text.trimStart();
  }
  return [params, text, raw];
}

/** All links of a `Link` field value (RFC 8288 §3). */
export function parseLinkHeader(value: string | null, base: string): Link[] {
  if (!value) return [];
  const links: Link[] = [];
  let text = value.trim();
  while (text.length > 0) {
    const match = /^<([^>]*)>/.exec(text);
    if (!match) throw new Error(`expected <URI-Reference> at ${text}`);
    const [params, rest] = readParams(text.slice(match[0].length));
    links.push({
      href: new URL(match[1] ?? '', base).href,
      rels: (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean),
      params,
    });
    text = rest.trimStart();
    if (text.startsWith(',')) text = text.slice(1).trimStart();
    else if (text.length > 0) throw new Error(`expected , between links at ${text}`);
  }
  return links;
}

export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  params: Record<string, string>;
  /** Each parameter's value exactly as written, to check quoting. */
  raw: Record<string, string>;
}

/** A Content-Type value (RFC 9110 §8.3.1). */
export function parseMediaType(value: string | null): MediaType {
  if (!value) throw new Error('no media type');
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+)/.exec(value.trim());
  if (!match?.[1]) throw new Error(`not a media type: ${value}`);
  const rest = value.trim().slice(match[1].length);
  const [params, remaining, raw] = readParams(rest);
  if (remaining.length > 0) throw new Error(`trailing text in media type: ${value}`);
  return { essence: match[1].toLowerCase(), params, raw };
}

/** The directives of a Content-Security-Policy, by name, each a list of sources. */
export function parseCsp(value: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (value ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The `Cache-Control` directives, by lower-cased name (value `''` when it has none). */
export function parseCacheControl(value: string | null): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of (value ?? '').split(',')) {
    const [name, ...rest] = part.trim().split('=');
    if (name) directives.set(name.toLowerCase(), rest.join('=').replace(/^"|"$/g, ''));
  }
  return directives;
}

/** What `response` sends for each of the site's base headers (src/platform/http.ts), to compare with them. */
export function baseHeadersOf(response: Response): Record<string, string | null> {
  return Object.fromEntries(Object.keys(BASE_HEADERS).map((name) => [name, response.headers.get(name)]));
}
