import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { type Header, parseAllHeaders } from '@netlify/headers-parser';
import send from 'send';

/**
 * netlify.toml's `[[headers]]` by Netlify's own parser, plus @astrojs/netlify's rule for hashed assets,
 * so static files get the headers Netlify sends; a rule Netlify would reject fails the start.
 */
export async function loadHeaderRules(root: string): Promise<Header[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [],
    netlifyConfigPath: path.join(root, 'netlify.toml'),
    configHeaders: [{ for: '/_astro/*', values: { 'Cache-Control': 'public, max-age=31536000, immutable' } }],
    minimal: false,
  });
  if (errors[0]) throw new Error(`netlify.toml [[headers]]: ${errors.map((error) => error.message).join('; ')}`);
  return headers as Header[];
}

/** Every header the rules give `pathname` (they never set one header twice for a path: a test checks). */
export function headersFor(rules: readonly Header[], pathname: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => rule.forRegExp.test(pathname)).map((rule) => rule.values));
}

/** The URL paths of the static output, each with its file: `/docs/api/` and `/docs/api` name `/docs/api/index.html`. */
export function staticFiles(clientDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) continue;
    const file = `/${path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`;
    const [dir, bare] = [file.replace(/\/index\.html$/, '/'), file.replace(/\/index\.html$/, '')];
    for (const alias of [file, dir, bare || '/']) files.set(alias, file);
  }
  return files;
}

/** By page file, the headers (CSP with hashes) @astrojs/node's `staticHeaders` wrote to dist/_headers.json. */
export function loadPageHeaders(root: string, files: Map<string, string>): Map<unknown, Record<string, string>> {
  const json = path.join(root, 'dist/_headers.json');
  const pages: { pathname: string; headers: { key: string; value: string }[] }[] = existsSync(json)
    ? JSON.parse(readFileSync(json, 'utf8'))
    : [];
  return new Map(
    pages.map((page) => [files.get(page.pathname), Object.fromEntries(page.headers.map((h) => [h.key, h.value]))]),
  );
}

/**
 * Sends a static file with `send` (as @astrojs/node does: ETag, 304, ranges, HEAD), `headers` winning
 * over its defaults; its errors (a 416 for a range past the end) are the status alone, with the headers.
 */
export function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  root: string,
  file: string,
  headers: Record<string, string>,
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  send(req, encodeURI(file), { root, index: false, dotfiles: file.startsWith('/.well-known/') ? 'allow' : 'deny' })
    .once('error', (error: { statusCode?: number }) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(error.statusCode ?? 500).end();
    })
    .pipe(res);
}
