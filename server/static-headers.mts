import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The `[[headers]]` rules of netlify.toml, applied by the local runtime to static files the way
 * Netlify applies them in production (https://docs.netlify.com/manage/routing/headers/), so both
 * deployments send the same headers from one file. Netlify does not apply these rules to function
 * responses; neither does the runtime (on-demand code sets its own, see src/lib/http.ts).
 */
export interface HeaderRule {
  /** The `for` path: exact, with `:placeholder` segments, or ending in a `*` splat. */
  for: string;
  values: Record<string, string>;
  pattern: URLPattern;
}

/**
 * Reads the `[[headers]]` tables of a netlify.toml. Only the TOML this project writes is
 * understood (`for = "…"`, a `[headers.values]` table of string values, full-line comments);
 * anything else inside a headers rule is an error rather than a silently missing header.
 */
export function parseHeaderRules(toml: string): HeaderRule[] {
  const rules: { for?: string; values: Record<string, string> }[] = [];
  let section: 'rule' | 'values' | 'other' = 'other';
  for (const [index, raw] of toml.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fail = (why: string) => new Error(`netlify.toml line ${index + 1}: ${why}: ${line}`);
    if (line.startsWith('[')) {
      if (line === '[[headers]]') {
        rules.push({ values: {} });
        section = 'rule';
      } else if (line === '[headers.values]') {
        if (section !== 'rule') throw fail('[headers.values] outside a [[headers]] rule');
        section = 'values';
      } else {
        section = 'other';
      }
      continue;
    }
    if (section === 'other') continue;
    const match = /^("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw fail('expected key = "value"');
    const key = match[1].startsWith('"') ? parseTomlString(match[1]) : match[1];
    const value = parseTomlString(match[2]);
    if (value === undefined || key === undefined) throw fail('expected a single string value');
    const rule = rules.at(-1) as (typeof rules)[number];
    if (section === 'values') rule.values[key] = value;
    else if (key === 'for') rule.for = value;
    else throw fail(`unsupported key ${key} in [[headers]]`);
  }
  return rules.map((rule) => {
    if (!rule.for) throw new Error('netlify.toml: a [[headers]] rule has no `for`');
    return { for: rule.for, values: rule.values, pattern: new URLPattern({ pathname: rule.for }) };
  });
}

/** A TOML basic ("…", with escapes) or literal ('…') string filling the whole text, else undefined. */
function parseTomlString(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^'[^']*'$/.test(trimmed)) return trimmed.slice(1, -1);
  if (!/^"(?:[^"\\]|\\.)*"$/.test(trimmed)) return undefined;
  return trimmed.slice(1, -1).replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, sequence: string) => {
    if (sequence.startsWith('u')) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    const simple: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r' };
    const value = simple[sequence];
    if (value === undefined) throw new Error(`netlify.toml: unsupported escape \\${sequence}`);
    return value;
  });
}

/**
 * Every header the rules give `pathname`. The rules never set one header twice for a path (a unit
 * test checks), since how Netlify combines such duplicates is not documented.
 */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) if (rule.pattern.test({ pathname })) Object.assign(headers, rule.values);
  return headers;
}

/**
 * The URL paths that name a file of the static output: `/docs/api/index.html` is also served at
 * `/docs/api/` and `/docs/api` (`trailingSlash: 'ignore'`).
 */
export function staticPathnames(clientDir: string): Set<string> {
  const paths = new Set<string>();
  const visit = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const urlPath = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        visit(path.join(dir, entry.name), urlPath);
      } else {
        paths.add(urlPath);
        if (entry.name === 'index.html') {
          paths.add(`${prefix}/`);
          if (prefix) paths.add(prefix);
        }
      }
    }
  };
  visit(clientDir, '');
  return paths;
}

/** Loads the rules of `<root>/netlify.toml`; a project without one has none. */
export function loadHeaderRules(root: string): HeaderRule[] {
  const file = path.join(root, 'netlify.toml');
  return existsSync(file) ? parseHeaderRules(readFileSync(file, 'utf8')) : [];
}

/** `/docs/api/` and `/docs/api` name one page (`trailingSlash: 'ignore'`). */
const pageKey = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/**
 * Headers Astro computed for prerendered pages (the Content-Security-Policy with the hashes of
 * their scripts and styles), from the `dist/_headers.json` the Node adapter writes with
 * `staticHeaders`; on Netlify the adapter puts the same into .netlify/v1/config.json. The adapter's
 * own static handler looks these up by substring and misses `/docs/api/` (with the slash), so the
 * runtime applies them by exact path instead.
 */
export function loadPageHeaders(root: string): (pathname: string) => Record<string, string> {
  let entries: { pathname: string; headers: { key: string; value: string }[] }[] = [];
  try {
    entries = JSON.parse(readFileSync(path.join(root, 'dist/_headers.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const byPage = new Map(
    entries.map((entry) => [
      pageKey(entry.pathname),
      Object.fromEntries(entry.headers.map((header) => [header.key, header.value])),
    ]),
  );
  return (pathname) => byPage.get(pageKey(pathname)) ?? {};
}
