import { describe, expect, it } from 'vitest';
import type { JobRecords } from '../../../src/jobs/job-runs.ts';
import {
  ABANDONED_AFTER_MS,
  hookOf,
  jobHealthOf,
  networkStatusOf,
  PUBLISH_STALE_AFTER_MS,
  publishStatusOf,
  RECORDER_STALE_AFTER_MS,
  recorderStatusOf,
  SHARE_STALE_AFTER_MS,
  tokenOf,
} from '../../../src/jobs/job-status.ts';
import {
  NetworkStatusSchema,
  PublishStatusSchema,
  RecorderStatusSchema,
  type StoredRun,
} from '../../../src/jobs/jobs-schemas.ts';
import { hookTarget } from '../../../src/jobs/publish-job.ts';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HOOK = 'https://api.netlify.com/build_hooks/5c23354f454e1350f8543e78';

function run(startedAgoMs: number, outcome: 'success' | 'failure', extra: Partial<StoredRun> = {}): StoredRun {
  return {
    runId: `run-${startedAgoMs}`,
    job: 'daily-publish',
    startedAt: NOW - startedAgoMs,
    finishedAt: NOW - startedAgoMs + 400,
    outcome,
    message: outcome === 'success' ? 'build hook accepted the call (200)' : 'build hook answered 500',
    ...extra,
  };
}
const started = (agoMs: number) => ({ runId: `start-${agoMs}`, startedAt: NOW - agoMs });

describe('the health of a job', () => {
  it.each(
    (
      [
        ['no record at all', { last: null, started: null }, 'never-run', null],
        ['a first run still in progress', { last: null, started: started(2 * MINUTE) }, 'never-run', null],
        [
          'a success an hour ago',
          { last: run(HOUR, 'success'), started: started(HOUR) },
          'ok',
          { outcome: 'success', finishedAt: 'set' },
        ],
        [
          'a failure an hour ago',
          { last: run(HOUR, 'failure'), started: started(HOUR) },
          'failing',
          { outcome: 'failure', finishedAt: 'set' },
        ],
        [
          'a success exactly 26 hours ago',
          { last: run(26 * HOUR, 'success'), started: null },
          'ok',
          { outcome: 'success', finishedAt: 'set' },
        ],
        [
          'a success 26 hours and 1 ms ago',
          { last: run(26 * HOUR + 1, 'success'), started: null },
          'stale',
          { outcome: 'success', finishedAt: 'set' },
        ],
        [
          'a failure 30 hours ago',
          { last: run(30 * HOUR, 'failure'), started: null },
          'stale',
          { outcome: 'failure', finishedAt: 'set' },
        ],
        [
          'a newer run in progress after a success',
          { last: run(DAY, 'success'), started: started(MINUTE) },
          'ok',
          { outcome: 'success', finishedAt: 'set' },
        ],
        [
          'a newer run in progress keeps a day-old job fresh',
          { last: run(27 * HOUR, 'success'), started: started(MINUTE) },
          'ok',
          { outcome: 'success', finishedAt: 'set' },
        ],
        [
          'a newer run that never recorded its end',
          { last: run(DAY, 'success'), started: started(ABANDONED_AFTER_MS + 1) },
          'failing',
          { outcome: 'failure', finishedAt: null },
        ],
        [
          'a first run that never ended',
          { last: null, started: started(HOUR) },
          'failing',
          { outcome: 'failure', finishedAt: null },
        ],
        [
          'an abandoned run two days ago',
          { last: null, started: started(2 * DAY) },
          'stale',
          { outcome: 'failure', finishedAt: null },
        ],
      ] as [string, JobRecords, string, { outcome: string; finishedAt: 'set' | null } | null][]
    ).map(([name, records, status, lastRun]) => [name, status, records, lastRun] as const),
  )('%s: %s', (_name, status, records, lastRun) => {
    const health = jobHealthOf(records, NOW, PUBLISH_STALE_AFTER_MS);
    expect(health.status).toBe(status);
    if (lastRun === null) expect(health.lastRun).toBeNull();
    else {
      expect(health.lastRun?.outcome).toBe(lastRun.outcome);
      expect(health.lastRun?.finishedAt === null ? null : 'set').toBe(lastRun.finishedAt);
    }
  });

  it('shows the last run with ISO 8601 times and its message', () => {
    const health = jobHealthOf({ last: run(HOUR, 'success'), started: null }, NOW, PUBLISH_STALE_AFTER_MS);
    expect(health.lastRun).toEqual({
      startedAt: '2026-11-21T11:00:00.000Z',
      finishedAt: '2026-11-21T11:00:00.400Z',
      outcome: 'success',
      message: 'build hook accepted the call (200)',
    });
  });

  it('says why an abandoned run failed', () => {
    const health = jobHealthOf({ last: null, started: started(HOUR) }, NOW, PUBLISH_STALE_AFTER_MS);
    expect(health.lastRun).toEqual({
      startedAt: '2026-11-21T11:00:00.000Z',
      finishedAt: null,
      outcome: 'failure',
      message: 'the run started but never recorded its end (stopped by a time limit or a crash)',
    });
  });
});

describe('the build hook state', () => {
  const call = (status: number | null, url = HOOK) => ({ calledAt: NOW - HOUR, status, target: hookTarget(url) });

  it.each(
    (
      [
        ['no hook configured', run(HOUR, 'success', { hook: call(200) }), undefined, 'unconfigured', null],
        ['configured, never run', null, HOOK, 'unknown', null],
        ['configured after a run without a hook', run(HOUR, 'failure', { hook: null }), HOOK, 'unknown', null],
        [
          'a different hook than the one last called',
          run(HOUR, 'success', { hook: call(200, `${HOOK}x`) }),
          HOOK,
          'unknown',
          null,
        ],
        ['answered 200', run(HOUR, 'success', { hook: call(200) }), HOOK, 'ok', 200],
        ['answered 204', run(HOUR, 'success', { hook: call(204) }), HOOK, 'ok', 204],
        ['answered 404', run(HOUR, 'failure', { hook: call(404) }), HOOK, 'failing', 404],
        ['answered 500', run(HOUR, 'failure', { hook: call(500) }), HOOK, 'failing', 500],
        ['did not answer', run(HOUR, 'failure', { hook: call(null) }), HOOK, 'failing', null],
      ] as [string, StoredRun | null, string | undefined, string, number | null][]
    ).map(([name, last, url, state, lastStatus]) => [name, state, last, url, lastStatus] as const),
  )('%s: %s', (_name, state, last, url, lastStatus) => {
    const hook = hookOf(last, url);
    expect(hook.state).toBe(state);
    expect(hook.configured).toBe(url !== undefined);
    expect(hook.lastStatus).toBe(lastStatus);
    expect(hook.lastCalledAt).toBe(state === 'ok' || state === 'failing' ? '2026-11-21T11:00:00.000Z' : null);
  });

  it('makes a publish status body that matches its schema exactly', () => {
    const body = publishStatusOf({ last: run(HOUR, 'success', { hook: call(200) }), started: null }, NOW, HOOK);
    expect(PublishStatusSchema.parse(body)).toEqual(body);
    expect(Object.keys(body)).toEqual(['job', 'status', 'lastRun', 'hook']);
    expect(body.job).toBe('daily-publish');
  });
});

describe('token freshness', () => {
  const at = (ms: number) => new Date(NOW + ms).toISOString();

  it.each<[string, string | undefined, string | undefined, boolean, number | null]>([
    ['no token', undefined, at(30 * DAY), false, null],
    ['a token without a known expiry', 'token', undefined, true, null],
    ['30 days left', 'token', at(30 * DAY), true, 30],
    ['7 days and 1 ms left', 'token', at(7 * DAY + 1), true, 7],
    ['exactly 7 days left', 'token', at(7 * DAY), false, 7],
    ['6 days and 23 hours left', 'token', at(7 * DAY - HOUR), false, 6],
    ['an hour left', 'token', at(HOUR), false, 0],
    ['expiring now', 'token', at(0), false, 0],
    ['expired a day ago', 'token', at(-DAY), false, 0],
  ])('%s', (_name, token, expiresAt, fresh, daysLeft) => {
    const view = tokenOf(token, expiresAt, NOW);
    expect(view).toEqual({
      configured: token !== undefined,
      expiresAt: token && expiresAt ? expiresAt : null,
      fresh,
      daysLeft,
    });
  });

  it('answers the expiry in UTC whatever offset it was configured with', () => {
    expect(tokenOf('token', '2027-01-15T09:00:00+09:00', NOW).expiresAt).toBe('2027-01-15T00:00:00.000Z');
  });
});

describe('the sharing job status', () => {
  const share = {
    at: NOW - HOUR,
    url: 'https://example.com/posts/a/',
    title: 'A',
    outcome: 'success' as const,
    message: 'shared',
  };
  const fine = { last: run(HOUR, 'success', { job: 'network-share' }), started: null };
  const future = new Date(NOW + 30 * DAY).toISOString();
  const past = new Date(NOW - 1).toISOString();

  it.each(
    (
      [
        ['never run', { last: null, started: null }, 'token', future, 'never-run'],
        ['never run with an expired token', { last: null, started: null }, 'token', past, 'never-run'],
        ['a recent success', fine, 'token', future, 'ok'],
        ['a recent success, token without expiry', fine, 'token', undefined, 'ok'],
        ['a recent success, token expiring in 3 days', fine, 'token', new Date(NOW + 3 * DAY).toISOString(), 'ok'],
        ['a recent success, token expired', fine, 'token', past, 'failing'],
        ['a recent success, token removed', fine, undefined, undefined, 'failing'],
        [
          'a recent failure',
          { last: run(HOUR, 'failure', { job: 'network-share' }), started: null },
          'token',
          future,
          'failing',
        ],
        [
          '3 hours and 1 ms since the last run',
          { last: run(SHARE_STALE_AFTER_MS + 1, 'success'), started: null },
          'token',
          future,
          'stale',
        ],
        ['stale with an expired token', { last: run(4 * HOUR, 'success'), started: null }, 'token', past, 'stale'],
      ] as [string, JobRecords, string | undefined, string | undefined, string][]
    ).map(([name, records, token, expiresAt, status]) => [name, status, records, token, expiresAt] as const),
  )('%s: %s', (_name, status, records, token, expiresAt) => {
    expect(networkStatusOf(records, NOW, token, expiresAt, null).status).toBe(status);
  });

  it('makes a body that matches its schema exactly, with the last share in ISO 8601', () => {
    const body = networkStatusOf(fine, NOW, 'token', future, share);
    expect(NetworkStatusSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      job: 'network-share',
      status: 'ok',
      token: { configured: true, expiresAt: future, fresh: true, daysLeft: 30 },
      lastShare: { at: '2026-11-21T11:00:00.000Z', url: share.url, title: 'A', outcome: 'success', message: 'shared' },
    });
  });
});

describe('the recorder status', () => {
  const parks = { polled: ['epcot'], closed: ['alphaland-paris'], alreadyRecorded: [], failed: [] };
  const recorderRun = (agoMs: number, outcome: 'success' | 'failure') =>
    run(agoMs, outcome, { job: 'record-waits', message: 'polled 1', parks });

  it.each([
    // newest run started this long ago, its outcome, the status
    { ago: 5 * MINUTE, outcome: 'success', status: 'ok' },
    { ago: 5 * MINUTE, outcome: 'failure', status: 'failing' },
    { ago: RECORDER_STALE_AFTER_MS + 1, outcome: 'success', status: 'stale' },
  ] as const)(
    'is $status when the newest run started $ago ms ago and ended in $outcome',
    ({ ago, outcome, status }) => {
      const body = recorderStatusOf({ last: recorderRun(ago, outcome), started: null }, NOW);
      expect(RecorderStatusSchema.parse(body)).toEqual(body);
      expect(body).toMatchObject({ job: 'record-waits', status, parks });
    },
  );

  it('is never-run, with no parks, before a run finished', () => {
    expect(recorderStatusOf({ last: null, started: null }, NOW)).toEqual({
      job: 'record-waits',
      status: 'never-run',
      lastRun: null,
      parks: null,
    });
  });
});
