import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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

/** Runs `astro build` unless dist/ is newer than every source file. */
export function buildIfNeeded(root: string): void {
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestSource(root)) return;
  console.info('Building the site (sources changed since the last build)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
