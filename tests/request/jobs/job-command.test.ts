import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { startBlobsServer } from '../../../server/blobs.mts';
import { parseContactRequest, submitContactMessage } from '../../../src/contact/contact.ts';
import { OFFLINE_DEFAULTS, ROOT } from '../../support/served-site.ts';
import { SLOW_MACHINE_LIMITS } from '../../support/slow-machine.ts';
import { type SmtpSink, startSmtpSink } from '../../support/smtp-sink.ts';

/**
 * `npm run job -- <name>` as an owner runs it: a separate process on the DATA_DIR the site
 * serves, against a real SMTP server on loopback. Messages are queued here first, through the
 * same code as POST /api/contact while the SMTP server refuses them.
 */
const MAIL = { CONTACT_TO: 'owner@example.net', CONTACT_FROM: 'contact-form@site.example' };
const SCHEDULED = ['contact-retry', 'daily-publish', 'grade-forecasts', 'network-share', 'photo-token-refresh'];
const HOUR = 3_600_000;

let sink: SmtpSink;
let dataDir: string;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-job-'));
});
afterEach(async () => {
  sink.setFailing(false);
  sink.mails.length = 0;
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs the job command (asynchronously: the SMTP server answers from this process). */
function job(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/job.mts'), ...args], {
    cwd: ROOT,
    env: {
      ...OFFLINE_DEFAULTS,
      ...SLOW_MACHINE_LIMITS,
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      ...MAIL,
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** Queues `count` messages in DATA_DIR's outbox, as POST /api/contact does when SMTP fails, an hour ago. */
async function queueMessages(count: number): Promise<void> {
  const saved = { ...process.env };
  Object.assign(process.env, { SMTP_URL: sink.url, ...MAIL });
  sink.setFailing(true);
  let blobs: Awaited<ReturnType<typeof startBlobsServer>> | undefined;
  try {
    blobs = await startBlobsServer(dataDir);
    for (let n = 0; n < count; n++) {
      const message = parseContactRequest({ name: `Visitor ${n}`, email: 'v@example.com', message: `Hello ${n}` });
      const outcome = await submitContactMessage(message, { client: `192.0.2.${n + 1}`, now: Date.now() - HOUR });
      expect(outcome).toBe('queued');
    }
  } finally {
    await blobs?.stop();
    sink.setFailing(false);
    process.env = saved;
  }
}

describe('npm run job', () => {
  it('delivers the queued contact messages and says so', async () => {
    await queueMessages(2);
    const { code, output } = await job(['contact-retry']);
    expect(output).toContain('contact-retry: delivered 2 queued messages\n');
    expect(code).toBe(0);
    expect(sink.mails.map((mail) => mail.parsed.text?.trim().split('\n').at(-1)).sort()).toEqual([
      'Hello 0',
      'Hello 1',
    ]);
    const again = await job(['contact-retry']);
    expect([again.code, again.output]).toEqual([0, expect.stringContaining('nothing queued')]);
  });

  it('says when the messages still fail and when they are tried next, and exits 1', async () => {
    await queueMessages(1);
    sink.setFailing(true);
    const { code, output } = await job(['contact-retry']);
    const next = /1 still failing: next try at (\S+)\n/.exec(output)?.[1];
    expect(next, output).toBeDefined();
    // The second failure of a message waits 5 minutes.
    expect(Date.parse(next ?? '') - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(next ?? '') - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(code).toBe(1);
    expect(sink.mails).toEqual([]);
  });

  it.each(SCHEDULED)('runs the scheduled function %s by its function name', async (name) => {
    const { code, output } = await job([name], { SMTP_URL: '' });
    expect(output.startsWith(`${name}: `), output).toBe(true);
    expect([0, 1]).toContain(code);
  });

  it('runs the wait-times recorder by hand: every park asked once per period, what it did printed', async () => {
    const upstream = await startFakeQueueTimes();
    try {
      const env = { WAIT_TIMES_UPSTREAM_URL: upstream.url };
      const first = await job(['record-waits'], env);
      // No hours (the provider is unreachable here) and nothing learned yet: in doubt, every park is asked.
      expect(first.output).toMatch(/^record-waits: success \(polled 17, closed 0, already recorded 0, failed 0/m);
      expect(first.code).toBe(0);
      expect(upstream.count()).toBe(17);
      const second = await job(['record-waits'], env);
      // Unless a period boundary passed in between, the period is spent.
      if (upstream.count() === 17) expect(second.output).toContain('polled 0, closed 0, already recorded 17');
      expect(second.code).toBe(0);
    } finally {
      await upstream.close();
    }
  });

  it.each([[['nope']], [[]]])(
    'exits 2 for an unknown or missing name (%j), listing every scheduled function',
    async (args) => {
      const { code, output } = await job(args);
      expect(code).toBe(2);
      expect(output).toContain(SCHEDULED.join(', '));
    },
  );
});
