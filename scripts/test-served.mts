import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';

// `npm test`'s last step: the request and browser tiers side by side (both mostly wait, each on its own
// ports); the browser tier's output is held back until it ends, so the two logs do not interleave.
const request = spawn('npm', ['run', '--silent', 'test:request'], { stdio: ['ignore', 'inherit', 'inherit'] });
const browser = spawn('npm', ['run', '--silent', 'test:browser'], { stdio: ['ignore', 'pipe', 'inherit'] });
const held = buffer(browser.stdout);
const exits = await Promise.all([once(request, 'close'), once(browser, 'close')]);
process.stdout.write(await held);
process.exitCode = exits.some(([code]) => code !== 0) ? 1 : 0;
