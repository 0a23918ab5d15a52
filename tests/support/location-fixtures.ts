import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './served-site.ts';

/** A real payload from fixtures/location/ (provenance in its SOURCES.md), parsed. */
export function locationFixture(name: string): object {
  return JSON.parse(readFileSync(path.join(ROOT, 'fixtures/location', name), 'utf8'));
}

/** The raw bytes of a fixture, to POST exactly what the app sent. */
export function locationFixtureText(name: string): string {
  return readFileSync(path.join(ROOT, 'fixtures/location', name), 'utf8');
}

/** Every primitive value in a JSON document (what a phone sent, to check none of it leaks). */
export function leafValues(value: unknown): (string | number | boolean)[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value).flatMap(leafValues);
  return [value as string | number | boolean];
}

/** A parser for one `WWW-Authenticate` challenge (RFC 9110 §11.2, §11.6.1), written for the tests. */
export function parseChallenge(header: string): {
  scheme: string;
  params: [string, string][];
  rawValues: Record<string, string>;
} {
  const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
  let rest = header;
  const schemeMatch = TOKEN.exec(rest);
  if (!schemeMatch) throw new Error(`no auth-scheme in ${header}`);
  const scheme = schemeMatch[0];
  rest = rest.slice(scheme.length);
  const params: [string, string][] = [];
  const rawValues: Record<string, string> = {};
  if (rest.length === 0) return { scheme, params, rawValues };
  if (!/^ +/.test(rest)) throw new Error('auth-scheme must be followed by 1*SP');
  rest = rest.replace(/^ +/, '');
  for (;;) {
    const name = TOKEN.exec(rest)?.[0];
    if (!name) throw new Error(`expected an auth-param name at: ${rest}`);
    // auth-param = token BWS "=" BWS ( token / quoted-string )
    const equals = /^[ \t]*=[ \t]*/.exec(rest.slice(name.length));
    if (!equals) throw new Error(`expected "=" after ${name}`);
    rest = rest.slice(name.length + equals[0].length);
    let value: string;
    let raw: string;
    if (rest.startsWith('"')) {
      // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
      const match = /^"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)"/.exec(rest);
      if (!match) throw new Error(`unterminated quoted-string at: ${rest}`);
      raw = match[0];
      value = (match[1] ?? '').replace(/\\(.)/g, '$1');
    } else {
      const token = TOKEN.exec(rest)?.[0];
      if (!token) throw new Error(`expected a token or quoted-string at: ${rest}`);
      raw = token;
      value = token;
    }
    rest = rest.slice(raw.length);
    params.push([name.toLowerCase(), value]);
    rawValues[name.toLowerCase()] = raw;
    if (rest.length === 0) break;
    const separator = /^[ \t]*,[ \t]*/.exec(rest);
    if (!separator) throw new Error(`expected "," at: ${rest}`);
    rest = rest.slice(separator[0].length);
  }
  return { scheme, params, rawValues };
}
