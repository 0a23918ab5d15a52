import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';

/**
 * `node scripts/side-by-side.mts <script> …`: runs the npm scripts at once and fails if any fails.
 * Used by `npm test`, where each step alone leaves one of the two cores idle for part of its time
 * (type checking and linting are single-threaded; each served tier has moments of waiting).
 * The first script's output streams; the others' is held back until each ends and then printed in
 * order, so the logs never interleave.
 */
const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('Usage: node scripts/side-by-side.mts <npm script> …');
  process.exit(2);
}
const runs = scripts.map((script, index) => {
  const child = spawn('npm', ['run', '--silent', script], {
    stdio: ['ignore', index === 0 ? 'inherit' : 'pipe', index === 0 ? 'inherit' : 'pipe'],
  });
  const { stdout, stderr } = child;
  const held = stdout && stderr ? Promise.all([buffer(stdout), buffer(stderr)]) : null;
  return { script, held, exit: once(child, 'close') as Promise<[number | null]> };
});
let failed = false;
for (const { script, held, exit } of runs) {
  const [code] = await exit;
  if (held) {
    const [stdout, stderr] = await held;
    process.stdout.write(stdout);
    process.stderr.write(stderr);
  }
  if (code !== 0) {
    failed = true;
    console.error(`npm run ${script} failed (exit ${code})`);
  }
}
process.exitCode = failed ? 1 : 0;
