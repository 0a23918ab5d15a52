import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * The local build records the SITE_URL it was made for, because prerendered documents carry it
 * (OpenAPI `servers`, agent skills, docs, embed snippets): `npm start` rebuilds when it differs
 * from the SITE_URL it runs with; `npm run serve` refuses to start.
 */
const RECORD = 'dist/server/build-site.json';

const originOf = (url: string): string => (URL.canParse(url) ? new URL(url).origin : url);

/** Astro integration: writes the record next to the server build once the build is done. */
export function recordBuildSite(site: string): AstroIntegration {
  let serverDir = '';
  return {
    name: 'site-api:build-record',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': () => {
        const file = path.join(serverDir, path.basename(RECORD));
        writeFileSync(file, `${JSON.stringify({ siteUrl: originOf(site) })}\n`);
      },
    },
  };
}

/** The SITE_URL origin dist/ was built for, or undefined when there is no local build record. */
export function builtSiteUrl(root: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(root, RECORD), 'utf8')) as { siteUrl: string }).siteUrl;
  } catch {
    return undefined;
  }
}

/** Why dist/ cannot be served for `siteUrl`, or undefined when it can. */
export function buildSiteMismatch(root: string, siteUrl: string): string | undefined {
  const built = builtSiteUrl(root);
  if (built === originOf(siteUrl)) return undefined;
  return built === undefined
    ? `dist/ has no record of the SITE_URL it was built for; run \`npm run build\` (or \`npm start\`, which builds) first.`
    : `dist/ was built for SITE_URL=${built}, but this server runs with SITE_URL=${originOf(siteUrl)}: its prerendered documents would name the other origin. Run \`npm start\` (it rebuilds), or \`npm run build\` with the same SITE_URL, then \`npm run serve\`.`;
}
