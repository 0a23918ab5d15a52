import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Netlify's own CLI, outside the project's dependencies (about 350 MB) in .cache/netlify-cli, run on
 * a copy of the project: `netlify build` writes dist/ and .netlify/, which must not replace the local build.
 */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI_DIR = path.join(ROOT, '.cache/netlify-cli');
export const CLI = path.join(CLI_DIR, 'node_modules/.bin/netlify');
/** The project's Node 24 first, for the CLI and everything it starts. */
export const PATH = [`${ROOT}/node_modules/node/bin`, `${ROOT}/node_modules/.bin`, process.env.PATH].join(':');

/** Runs a command to completion; throws with its output when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${output}`);
  return output;
}

/** Installs netlify-cli 27 into .cache/netlify-cli unless it is there. */
export function ensureCli(): void {
  if (existsSync(CLI)) return;
  const started = performance.now();
  console.info('Installing netlify-cli@27 into .cache/netlify-cli (once, about 350 MB)…');
  const args = ['install', '--prefix', CLI_DIR, '--no-audit', '--no-fund', '--loglevel=error', 'netlify-cli@27'];
  run('npm', args, ROOT, { ...process.env, PATH });
  console.info(`installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The project as git sees it (tracked files and new ones not ignored) in a temporary folder, with
 * node_modules hard-linked (a symlink would be zipped as a link, not as the files a deploy ships).
 */
export async function copyProject(): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'site-api-netlify-cli-'));
  const listed = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], ROOT);
  for (const file of listed.split('\0').filter((f) => f && existsSync(path.join(ROOT, f))))
    await cp(path.join(ROOT, file), path.join(copy, file), { recursive: true });
  try {
    run('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules')], ROOT);
  } catch {
    console.warn('node_modules could not be hard-linked (another file system?): symlinked, left out of zip sizes');
    await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  }
  // The CLI takes the git root as the project root.
  run('git', ['init', '-q'], copy);
  return copy;
}

/** The environment for the CLI: Netlify's own variables only (it adds NETLIFY_LOCAL, CONTEXT…), no SITE_URL. */
export function cliEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { SITE_URL: _site, NETLIFY: _netlify, URL: _url, ...inherited } = process.env;
  return { ...inherited, PATH, BROWSER: 'none', ASTRO_TELEMETRY_DISABLED: '1', ...extra };
}

// `node scripts/netlify-cli.mts` installs the CLI alone: .ci/run does it while the tests run.
if (process.argv[1] === import.meta.filename) ensureCli();
