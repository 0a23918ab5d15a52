import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/platform/config.ts';
import { buildSiteMismatch } from './build-record.mts';

/** The newest modification time of anything the build reads. */
function newestSource(root: string): number {
  let newest = 0;
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const part of ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'])
    visit(path.join(root, part));
  return newest;
}

/** Why a build is needed (sources changed, or another SITE_URL), or undefined when dist/ is current. */
export function buildReason(root: string, siteUrl: string): string | undefined {
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry) || statSync(entry).mtimeMs < newestSource(root)) return 'sources changed since the last build';
  if (buildSiteMismatch(root, siteUrl)) return `the last build was not made for SITE_URL=${siteUrl}`;
  return undefined;
}

/** Runs `astro build` unless dist/ is newer than every source file and made for this SITE_URL. */
export function buildIfNeeded(root: string): void {
  let siteUrl: string;
  try {
    siteUrl = loadConfig(process.env).SITE_URL;
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const reason = buildReason(root, siteUrl);
  if (!reason) return;
  console.info(`Building the site (${reason})…`);
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
