import { spawn } from 'node:child_process';

// `npm test`'s last step: the request and browser tiers side by side (both mostly wait, each on its own
// ports); the browser tier's output is held back until it ends, so the two logs do not interleave.
const run = (script: string, hold: boolean) =>
  new Promise<number>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', hold ? 'pipe' : 'inherit', 'inherit'],
    });
    const held: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
    child.on('close', (code) => {
      if (hold) process.stdout.write(Buffer.concat(held));
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all([run('test:request', false), run('test:browser', true)]);
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
