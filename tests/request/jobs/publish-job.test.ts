import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import dailyPublish, { config as dailyPublishConfig } from '../../../netlify/functions/daily-publish.mts';
import { scheduledInvocation } from '../../../server/functions.mts';
import { RUN_HISTORY_LIMIT, runHistory } from '../../../src/jobs/job-runs.ts';
import { getPublishStatus } from '../../../src/jobs/job-status.ts';
import { PublishStatusSchema } from '../../../src/jobs/jobs-schemas.ts';
import { runPublishJob } from '../../../src/jobs/publish-job.ts';
import { type FakeBuildHook, startFakeBuildHook } from '../../support/fake-job-services.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

/** Short enough to keep the tests quick; the real timeout is 10 s. */
const TIMEOUT_MS = 300;

let hook: FakeBuildHook;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  hook = await startFakeBuildHook();
});
afterAll(() => hook.close());
beforeEach(async () => {
  blobs = await startLocalBlobs();
  hook.reset();
  process.env.PUBLISH_HOOK_URL = hook.hookUrl;
});
afterEach(async () => {
  delete process.env.PUBLISH_HOOK_URL;
  await blobs.stop();
});

describe('the daily publish job', () => {
  it('POSTs an empty JSON body to the build hook and records a successful run', async () => {
    const run = await runPublishJob();
    expect(run).toMatchObject({
      job: 'daily-publish',
      outcome: 'success',
      message: 'build hook accepted the call (200)',
    });
    expect(run.hook).toMatchObject({ status: 200 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]).toMatchObject({ method: 'POST', body: '{}' });
    expect(hook.requests[0]?.headers['content-type']).toBe('application/json');

    const status = await getPublishStatus();
    expect(PublishStatusSchema.parse(status)).toEqual(status);
    expect(status).toEqual({
      job: 'daily-publish',
      status: 'ok',
      lastRun: {
        startedAt: new Date(run.startedAt).toISOString(),
        finishedAt: new Date(run.finishedAt).toISOString(),
        outcome: 'success',
        message: 'build hook accepted the call (200)',
      },
      hook: {
        configured: true,
        state: 'ok',
        lastCalledAt: new Date(run.hook?.calledAt ?? 0).toISOString(),
        lastStatus: 200,
      },
    });
  });

  it('tries once more when the hook answers 503, and succeeds', async () => {
    hook.failNext(1, 'error-503');
    const buildsBefore = hook.builds;
    const run = await runPublishJob();
    expect(run.outcome).toBe('success');
    expect(hook.requests).toHaveLength(2);
    expect(hook.builds - buildsBefore).toBe(1);
  });

  it('records a failure with the status when the hook answers 500 (no retry)', async () => {
    hook.mode = 'error-500';
    const run = await runPublishJob();
    expect(run).toMatchObject({ outcome: 'failure', message: 'build hook answered 500' });
    expect(hook.requests).toHaveLength(1);
    expect(await getPublishStatus()).toMatchObject({
      status: 'failing',
      lastRun: { outcome: 'failure', message: 'build hook answered 500' },
      hook: { configured: true, state: 'failing', lastStatus: 500 },
    });
  });

  it.each([
    ['does not answer', 'hang' as const, `build hook: no answer within ${TIMEOUT_MS} ms`],
    ['drops the connection', 'reset' as const, 'build hook: network error'],
  ])('records a failure without a status when the hook %s, after one retry', async (_name, mode, message) => {
    hook.mode = mode;
    const run = await runPublishJob({ hookTimeoutMs: TIMEOUT_MS });
    expect(run).toMatchObject({ outcome: 'failure', message });
    expect(run.hook?.status).toBeNull();
    expect(hook.requests).toHaveLength(2);
    expect(await getPublishStatus()).toMatchObject({
      status: 'failing',
      hook: { state: 'failing', lastStatus: null },
    });
  });

  it('fails clearly when no hook is configured, and says the hook is unconfigured', async () => {
    delete process.env.PUBLISH_HOOK_URL;
    const run = await runPublishJob();
    expect(run).toMatchObject({
      outcome: 'failure',
      message: 'no build hook is configured (PUBLISH_HOOK_URL): nothing was published',
      hook: null,
    });
    expect(await getPublishStatus()).toMatchObject({
      status: 'failing',
      hook: { configured: false, state: 'unconfigured', lastCalledAt: null, lastStatus: null },
    });
  });

  it('reports a hook that was changed since the last run as unknown', async () => {
    await runPublishJob();
    process.env.PUBLISH_HOOK_URL = `${hook.url}/build_hooks/another`;
    expect((await getPublishStatus()).hook).toEqual({
      configured: true,
      state: 'unknown',
      lastCalledAt: null,
      lastStatus: null,
    });
  });

  it('says never-run before the first run, with the hook state unknown', async () => {
    expect(await getPublishStatus()).toEqual({
      job: 'daily-publish',
      status: 'never-run',
      lastRun: null,
      hook: { configured: true, state: 'unknown', lastCalledAt: null, lastStatus: null },
    });
  });

  it(`keeps the newest ${RUN_HISTORY_LIMIT} runs`, async () => {
    delete process.env.PUBLISH_HOOK_URL;
    const runs = [];
    for (let i = 0; i < RUN_HISTORY_LIMIT + 3; i++) runs.push(await runPublishJob());
    const kept = await runHistory('daily-publish');
    expect(kept).toHaveLength(RUN_HISTORY_LIMIT);
    expect(kept.map((run) => run.runId)).toEqual(runs.slice(3).map((run) => run.runId));
  });
});

describe('the daily-publish function', () => {
  it('runs daily and answers the recorded run, 200 on success and 500 on failure', async () => {
    expect(dailyPublishConfig).toEqual({ schedule: '@daily' });
    const nextRun = new Date('2026-11-22T00:00:00.000Z');
    const invoke = () =>
      dailyPublish(
        ...scheduledInvocation('daily-publish', { siteUrl: 'http://localhost', nextRun, waitUntil: () => {} }),
      );
    const ok = await invoke();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toMatchObject({ job: 'daily-publish', outcome: 'success' });

    hook.mode = 'error-500';
    const failed = await invoke();
    expect(failed.status).toBe(500);
    const body = await failed.text();
    expect(JSON.parse(body)).toMatchObject({ outcome: 'failure' });
    // The hook URL lets anyone start builds: it is never in a record or an answer.
    expect(body).not.toContain('build_hooks');
  });
});
