import { spawnSync } from 'node:child_process';
import { globSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/platform/config.ts';
import { buildSiteMismatch } from './build-record.mts';

// `npm start`: builds when anything the build reads is newer than dist/ or dist/ was made for another
// SITE_URL, then serves everything on one port; `--demo` serves scripts/demo.mts instead.
const root = path.resolve(import.meta.dirname, '..');
let siteUrl: string;
try {
  siteUrl = loadConfig(process.env).SITE_URL;
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
// `/.*/**` too: a glob skips folders such as src/pages/.well-known.
const sources = ['{src,public}/**', '{src,public}/**/.*/**', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
const entry = path.join(root, 'dist/server/entry.mjs');
const builtAt = statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const reason = globSync(sources, { cwd: root }).some((file) => statSync(path.join(root, file)).mtimeMs > builtAt)
  ? 'sources changed since the last build'
  : buildSiteMismatch(root, siteUrl) && `the last build was not made for SITE_URL=${siteUrl}`;
if (reason) {
  console.info(`Building the site (${reason})…`);
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  const build = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(process.argv.includes('--demo') ? './demo.mts' : '../server/main.mts');
