import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlobsServer } from '../server/blobs.mts';
import { createContext, loadFunctions } from '../server/functions.mts';
import type { DeliveryReport } from '../src/contact/contact.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';

/**
 * `npm run job -- <name>`: runs one scheduled function now, by its function name, in this process,
 * exactly as the schedule would (its default export, invoked with the platform's POST), against the
 * Blobs data under DATA_DIR that `npm start` serves, and prints what it did. Exit code 0 when the
 * run succeeded, 1 when it failed, 2 for an unknown name.
 */
const ALIASES: Readonly<Record<string, string>> = {
  publish: 'daily-publish',
  share: 'network-share',
  'photo-token': 'photo-token-refresh',
  retry: 'contact-retry',
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scheduled = (await loadFunctions(path.join(root, 'netlify/functions'))).filter(
  (candidate) => 'schedule' in candidate.config && candidate.config.schedule,
);
const asked = process.argv[2] ?? '';
const fn = scheduled.find((candidate) => candidate.name === (ALIASES[asked] ?? asked));
if (!fn) {
  const names = scheduled.map((candidate) => candidate.name).join(', ');
  console.error(`${asked ? `No scheduled function "${asked}". ` : ''}Usage: npm run job -- <name>, one of: ${names}`);
  process.exit(2);
}
const name = fn.name;

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** One line on what a run did: a job's recorded run, or the contact outbox delivery report. */
function summary(body: Record<string, unknown>, status: number): string {
  if (typeof body.outcome === 'string') return `${body.outcome}${body.message ? ` (${body.message})` : ''}`;
  if (typeof body.delivered === 'number') {
    const report = body as unknown as DeliveryReport;
    if (report.delivered + report.failed + report.waiting === 0) return 'nothing queued';
    if (!config.SMTP_URL) return `${plural(report.waiting, 'queued message')} wait for SMTP_URL to be set`;
    const parts = [`delivered ${plural(report.delivered, 'queued message')}`];
    if (report.failed > 0) parts.push(`${report.failed} still failing`);
    if (report.waiting > 0) parts.push(`${plural(report.waiting, 'message')} not due yet`);
    const next = report.nextAttemptAt ? `: next try at ${new Date(report.nextAttemptAt).toISOString()}` : '';
    return `${parts.join(', ')}${report.failed + report.waiting > 0 ? next : ''}`;
  }
  return `HTTP ${status}`;
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
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Printed as it is below.
  }
  console.info(`${name}: ${summary(body, response.status)}`);
  console.info(Object.keys(body).length > 0 ? JSON.stringify(body, null, 2) : text);
  const failed = !response.ok || (typeof body.failed === 'number' && body.failed > 0);
  process.exitCode = failed ? 1 : 0;
} finally {
  await Promise.allSettled(pending);
  await blobs.stop();
}
