import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlobsServer } from '../server/blobs.mts';
import { createContext, loadFunctions } from '../server/functions.mts';
import { type Config, loadConfig } from '../src/lib/config.ts';

/**
 * `npm run job -- <job>`: runs one scheduled job now, in this process, exactly as the schedule
 * would (the function's default export, invoked with the platform's POST), against the Blobs
 * data under DATA_DIR that `npm start` serves, and prints the run it recorded. Exit code 0 when
 * the run succeeded, 1 when it failed, 2 for a wrong command line.
 */
const JOBS: Readonly<Record<string, string>> = {
  publish: 'daily-publish',
  'daily-publish': 'daily-publish',
  'network-share': 'network-share',
  share: 'network-share',
  'photo-token-refresh': 'photo-token-refresh',
  'photo-token': 'photo-token-refresh',
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const asked = process.argv[2];
const name = asked ? JOBS[asked] : undefined;
if (!name) {
  console.error('Usage: npm run job -- publish | network-share | photo-token-refresh');
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const functions = await loadFunctions(path.join(root, 'netlify/functions'));
const fn = functions.find((candidate) => candidate.name === name);
if (!fn || !('schedule' in fn.config)) {
  console.error(`No scheduled function ${name} in netlify/functions.`);
  process.exit(2);
}

const blobs = await startBlobsServer(path.resolve(root, config.DATA_DIR));
const pending: Promise<unknown>[] = [];
try {
  const url = new URL(`/.netlify/functions/${name}`, config.SITE_URL);
  const request = new Request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ next_run: null }),
  });
  const context = createContext({
    ip: '127.0.0.1',
    url,
    params: {},
    siteUrl: config.SITE_URL,
    waitUntil: (promise) => pending.push(promise),
  });
  const response = await fn.handler(request, context);
  const text = await response.text();
  let run: { outcome?: string; message?: string } = {};
  try {
    run = JSON.parse(text);
  } catch {
    // Printed as it is below.
  }
  console.info(`${name}: ${run.outcome ?? `HTTP ${response.status}`}${run.message ? ` (${run.message})` : ''}`);
  console.info(run.outcome ? JSON.stringify(run, null, 2) : text);
  process.exitCode = response.ok ? 0 : 1;
} finally {
  await Promise.allSettled(pending);
  await blobs.stop();
}
