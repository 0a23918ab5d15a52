import path from 'node:path';
import { startBlobsServer } from '../server/blobs.mts';
import { loadFunctions, scheduledInvocation } from '../server/functions.mts';
import type { DeliveryReport } from '../src/contact/contact.ts';
import { loadConfig } from '../src/platform/config.ts';

/**
 * `npm run job -- <name>`: runs one scheduled function now, in this process, as the schedule would
 * (the platform's POST), on the Blobs data under DATA_DIR, and prints what it did. Exits 0 when the
 * run succeeded, 1 when it failed, 2 for an unknown name.
 */
const root = path.resolve(import.meta.dirname, '..');
const functions = await loadFunctions(path.join(root, 'netlify/functions'));
const scheduled = functions.filter((candidate) => 'schedule' in candidate.config && candidate.config.schedule);
const name = process.argv[2] ?? '';
const fn = scheduled.find((candidate) => candidate.name === name);
if (!fn) {
  const names = scheduled.map((candidate) => candidate.name).join(', ');
  console.error(`${name ? `No scheduled function "${name}". ` : ''}Usage: npm run job -- <name>, one of: ${names}`);
  process.exit(2);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** One line on what a run did: a job's recorded run, or the contact outbox's delivery report. */
function summary(body: Record<string, unknown>, status: number): string {
  if (body.recorder === 'off') return 'off (WAIT_TIMES_RECORDER=off): nothing asked';
  if (typeof body.outcome === 'string') return `${body.outcome}${body.message ? ` (${body.message})` : ''}`;
  if (typeof body.delivered !== 'number') return `HTTP ${status}`;
  const { delivered, failed, waiting, nextAttemptAt } = body as unknown as DeliveryReport;
  if (delivered + failed + waiting === 0) return 'nothing queued';
  if (!config.SMTP_URL) return `${plural(waiting, 'queued message')} wait for SMTP_URL to be set`;
  const parts = [`delivered ${plural(delivered, 'queued message')}`];
  if (failed > 0) parts.push(`${failed} still failing`);
  if (waiting > 0) parts.push(`${plural(waiting, 'message')} not due yet`);
  const next = failed + waiting > 0 && nextAttemptAt ? `: next try at ${new Date(nextAttemptAt).toISOString()}` : '';
  return parts.join(', ') + next;
}

const blobs = await startBlobsServer(path.resolve(root, config.DATA_DIR));
const pending: Promise<unknown>[] = [];
try {
  const waitUntil = (promise: Promise<unknown>) => pending.push(promise);
  const invocation = scheduledInvocation(fn.name, { siteUrl: config.SITE_URL, nextRun: null, waitUntil });
  const response = await fn.handler(...invocation);
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json');
  const body: Record<string, unknown> = json ? JSON.parse(text) : {};
  console.info(`${fn.name}: ${summary(body, response.status)}`);
  console.info(json ? JSON.stringify(body, null, 2) : text);
  process.exitCode = !response.ok || (typeof body.failed === 'number' && body.failed > 0) ? 1 : 0;
} finally {
  await Promise.allSettled(pending);
  await blobs.stop();
}
