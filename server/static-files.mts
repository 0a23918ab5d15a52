import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { type Header, parseAllHeaders } from '@netlify/headers-parser';
import send from 'send';

/**
 * Static files (prerendered pages and documents) as Netlify serves them: the `[[headers]]` rules
 * of netlify.toml, read by Netlify's own parser (@netlify/headers-parser, the one its build and
 * CLI use) and matched the way Netlify matches them (https://docs.netlify.com/manage/routing/headers/),
 * so both deployments send the same headers from one file. Netlify does not apply these rules to
 * function responses; neither does the runtime (on-demand code sets its own, see src/platform/http.ts).
 */
export type HeaderRule = Header;

/**
 * Long-lived caching of Astro's hashed assets: what @astrojs/netlify writes into
 * .netlify/v1/config.json for Netlify and @astrojs/node sets on its assets folder.
 */
const ASSET_RULES = [{ for: '/_astro/*', values: { 'Cache-Control': 'public, max-age=31536000, immutable' } }];

/** The rules of `<root>/netlify.toml` (none without one) plus the asset rule; a rule Netlify would reject fails the start. */
export async function loadHeaderRules(root: string): Promise<HeaderRule[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [],
    netlifyConfigPath: path.join(root, 'netlify.toml'),
    configHeaders: ASSET_RULES,
    minimal: false,
  });
  if (errors.length > 0)
    throw new Error(`netlify.toml [[headers]]: ${errors.map((error) => error.message).join('; ')}`);
  return headers as HeaderRule[];
}

/**
 * Every header the rules give `pathname`. The rules never set one header twice for a path (a
 * request test checks), since how Netlify combines such duplicates is not documented.
 */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) if (rule.forRegExp.test(pathname)) Object.assign(headers, rule.values);
  return headers;
}

/**
 * The URL paths that name a file of the static output, each with that file's path:
 * `/docs/api/index.html` is also served at `/docs/api/` and `/docs/api` (`trailingSlash: 'ignore'`).
 */
export function staticFiles(clientDir: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (prefix: string) => {
    for (const entry of readdirSync(path.join(clientDir, prefix), { withFileTypes: true })) {
      const urlPath = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        visit(urlPath);
        continue;
      }
      files.set(urlPath, urlPath);
      if (entry.name === 'index.html') {
        files.set(`${prefix}/`, urlPath);
        if (prefix) files.set(prefix, urlPath);
      }
    }
  };
  visit('');
  return files;
}

/** `/docs/api/` and `/docs/api` name one page (`trailingSlash: 'ignore'`). */
const pageKey = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/**
 * Headers Astro computed for prerendered pages (the Content-Security-Policy with the hashes of
 * their scripts and styles), from the `dist/_headers.json` the Node adapter writes with
 * `staticHeaders`; on Netlify the adapter puts the same into .netlify/v1/config.json. Looked up by
 * exact page: @astrojs/node 11.1.6's own lookup matches by substring (withastro/astro#16673).
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

/**
 * Sends one file of the static output with `send` (what @astrojs/node uses: ETag, Last-Modified,
 * 304, ranges, HEAD). The headers given win over `send`'s defaults (it keeps a Content-Type and
 * Cache-Control already set).
 */
export function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: { clientDir: string; file: string; headers: Record<string, string>; fallback: () => void },
): void {
  for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value);
  const stream = send(req, encodeURI(options.file), {
    root: options.clientDir,
    dotfiles: options.file.startsWith('/.well-known/') ? 'allow' : 'deny',
    index: false,
  });
  let found = false;
  stream.once('file', () => {
    found = true;
  });
  // With a listener, `send` leaves the error to us and keeps the headers set above (a 416 for a
  // range past the end, a 412): answered as @astrojs/node answers them, status only. A file that
  // is gone goes to the fallback, without this file's headers.
  stream.once('error', (error: Error & { statusCode?: number }) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (found) {
      const status = error.statusCode ?? 500;
      res.writeHead(status).end(status >= 500 ? 'Internal server error' : '');
      return;
    }
    for (const name of Object.keys(options.headers)) res.removeHeader(name);
    options.fallback();
  });
  stream.pipe(res);
}
