import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeBuildHook,
  type FakeNetworkApi,
  type FakePhotoGraph,
  type FakePostFeed,
  startFakeBuildHook,
  startFakeNetworkApi,
  startFakePhotoGraph,
  startFakePostFeed,
} from '../../support/fake-job-services.ts';
import { eventually, ROOT, type ServedSite, startServedSite } from '../../support/served-site.ts';
import { SLOW_MACHINE_LIMITS } from '../../support/slow-machine.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Past the status endpoints' route cache (60 s fresh + 60 s stale-while-revalidate). */
const PAST_STATUS_CACHE = 3 * MINUTE;
const ALLOW = 'GET, HEAD, OPTIONS';

/** `npm run job -- <name>` against the served site's data, as the owner would run it. */
function runJobByHand(
  name: string,
  site: ServedSite,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'scripts/job.mts'), name],
      { cwd: ROOT, env: { ...SLOW_MACHINE_LIMITS, PATH: process.env.PATH ?? '', DATA_DIR: site.dataDir, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const getJson = async (site: ServedSite, pathname: string, init: RequestInit = {}) => {
  const response = await fetch(`${site.url}${pathname}`, init);
  return { response, body: response.status === 304 || init.method === 'HEAD' ? null : await response.json() };
};

describe('with nothing configured', () => {
  let site: ServedSite;
  beforeAll(async () => {
    site = await startServedSite({ clock: true });
  });
  afterAll(() => site.stop());

  describe.each(['/api/publish-status', '/api/professional-network-status', '/api/recorder-status', '/api/photo-feed'])(
    'the HTTP surface of %s',
    (pathname) => {
      it('answers JSON any origin may read, with an ETag that answers If-None-Match with 304', async () => {
        const { response } = await getJson(site, pathname);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        const etag = response.headers.get('etag');
        expect(etag).toMatch(/^"[\w-]+"$/);
        const again = await fetch(`${site.url}${pathname}`, { headers: { 'If-None-Match': etag ?? '' } });
        expect(again.status).toBe(304);
      });

      it('answers HEAD like GET without a body, and OPTIONS with the allowed methods', async () => {
        const head = await fetch(`${site.url}${pathname}`, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(await head.text()).toBe('');
        const options = await fetch(`${site.url}${pathname}`, { method: 'OPTIONS' });
        expect(options.status).toBe(204);
        expect(options.headers.get('allow')).toBe(ALLOW);
        expect(options.headers.get('access-control-allow-origin')).toBe('*');
      });

      it.each(['POST', 'PUT', 'DELETE'])('answers %s with 405 and Allow', async (method) => {
        const { response, body } = await getJson(site, pathname, { method });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe(ALLOW);
        expect(body).toEqual({ error: 'method not allowed' });
      });
    },
  );

  it.each([
    [
      '/api/publish-status',
      {
        job: 'daily-publish',
        status: 'never-run',
        lastRun: null,
        hook: { configured: false, state: 'unconfigured', lastCalledAt: null, lastStatus: null },
      },
    ],
    [
      '/api/professional-network-status',
      {
        job: 'network-share',
        status: 'never-run',
        token: { configured: false, expiresAt: null, fresh: false, daysLeft: null },
        lastShare: null,
      },
    ],
    ['/api/recorder-status', { job: 'record-waits', status: 'never-run', lastRun: null, parks: null }],
    ['/api/photo-feed', { configured: false, updatedAt: null, items: [] }],
  ])('%s answers 200 with its degraded body', async (pathname, expected) => {
    const { response, body } = await getJson(site, pathname);
    expect(response.status).toBe(200);
    expect(body).toEqual(expected);
  });

  it('records a failed publish run that says what is missing', async () => {
    const { code, output } = await runJobByHand('daily-publish', site, {});
    expect(code).toBe(1);
    expect(output).toContain(
      'daily-publish: failure (no build hook is configured (PUBLISH_HOOK_URL): nothing was published)',
    );
    await site.advanceClock(PAST_STATUS_CACHE);
    const { body } = await getJson(site, '/api/publish-status');
    expect(body).toMatchObject({ status: 'failing', hook: { state: 'unconfigured' } });
  });
});

describe('the job status endpoints over the life of the jobs', () => {
  let site: ServedSite;
  let hook: FakeBuildHook;
  let feed: FakePostFeed;
  let api: FakeNetworkApi;
  let env: Record<string, string>;
  const expiresAt = new Date(Date.now() + 10 * DAY).toISOString();

  beforeAll(async () => {
    [hook, feed, api] = await Promise.all([startFakeBuildHook(), startFakePostFeed(), startFakeNetworkApi('token-1')]);
    feed.posts = [{ id: 'p1', url: 'https://example.com/p1/', title: 'First', date: '2026-11-01T00:00:00Z' }];
    env = {
      PUBLISH_HOOK_URL: hook.hookUrl,
      NETWORK_ACCESS_TOKEN: 'token-1',
      NETWORK_TOKEN_EXPIRES_AT: expiresAt,
      NETWORK_AUTHOR_URN: 'urn:li:person:abc123',
      NETWORK_FEED_URL: feed.jsonFeedUrl,
      NETWORK_API_URL: api.url,
    };
    // The site's own schedules off: after the clock jumps days ahead, its scheduler would run the
    // jobs within seconds (on a busy machine, before the "stale" check). Runs here are by hand.
    site = await startServedSite({ env: { ...env, LOCAL_SCHEDULES: 'off' }, clock: true });
  });
  afterAll(() => Promise.all([site.stop(), hook.close(), feed.close(), api.close()]));

  it('says never-run before any run, with the hook unknown and the token fresh', async () => {
    expect((await getJson(site, '/api/publish-status')).body).toEqual({
      job: 'daily-publish',
      status: 'never-run',
      lastRun: null,
      hook: { configured: true, state: 'unknown', lastCalledAt: null, lastStatus: null },
    });
    expect((await getJson(site, '/api/professional-network-status')).body).toEqual({
      job: 'network-share',
      status: 'never-run',
      token: { configured: true, expiresAt, fresh: true, daysLeft: 9 },
      lastShare: null,
    });
  });

  it('shows a successful publish run started by hand', async () => {
    const { code, output } = await runJobByHand('daily-publish', site, env);
    expect(code).toBe(0);
    expect(output).toContain('daily-publish: success (build hook accepted the call (200))');
    expect(hook.builds).toBe(1);
    await site.advanceClock(PAST_STATUS_CACHE);
    const { body } = await getJson(site, '/api/publish-status');
    expect(body).toMatchObject({
      status: 'ok',
      lastRun: { outcome: 'success', message: 'build hook accepted the call (200)' },
      hook: { configured: true, state: 'ok', lastStatus: 200 },
    });
    expect(Date.parse(body.lastRun.finishedAt)).toBeGreaterThanOrEqual(Date.parse(body.lastRun.startedAt));
  });

  it('shows a failing hook', async () => {
    hook.mode = 'error-500';
    const { code } = await runJobByHand('daily-publish', site, env);
    hook.mode = 'ok';
    expect(code).toBe(1);
    await site.advanceClock(PAST_STATUS_CACHE);
    expect((await getJson(site, '/api/publish-status')).body).toMatchObject({
      status: 'failing',
      lastRun: { outcome: 'failure', message: 'build hook answered 500' },
      hook: { state: 'failing', lastStatus: 500 },
    });
  });

  it('shows the last share once a new post went out', async () => {
    expect((await runJobByHand('network-share', site, env)).code).toBe(0);
    feed.posts = [
      { id: 'p2', url: 'https://example.com/p2/', title: 'Second (new)', date: new Date().toISOString() },
      ...feed.posts,
    ];
    const { code, output } = await runJobByHand('network-share', site, env);
    expect(code).toBe(0);
    expect(output).toContain('network-share: success (shared 1 new post)');
    expect(api.posts).toHaveLength(1);
    await site.advanceClock(PAST_STATUS_CACHE);
    const { body } = await getJson(site, '/api/professional-network-status');
    expect(body).toMatchObject({
      status: 'ok',
      lastShare: { url: 'https://example.com/p2/', title: 'Second (new)', outcome: 'success', message: 'shared' },
    });
    // Public JSON stays brand-neutral: no network post URN.
    expect(JSON.stringify(body)).not.toContain('urn:');
  });

  it('says the token is no longer fresh within 7 days of its expiry', async () => {
    await site.advanceClock(4 * DAY);
    const { body } = await getJson(site, '/api/professional-network-status');
    expect(body.token).toEqual({ configured: true, expiresAt, fresh: false, daysLeft: 5 });
  });

  it('says stale when the jobs have not run for longer than their period', async () => {
    expect((await getJson(site, '/api/publish-status')).body.status).toBe('stale');
    expect((await getJson(site, '/api/professional-network-status')).body.status).toBe('stale');
  });
});

describe('the photo feed over time', () => {
  let site: ServedSite;
  let graph: FakePhotoGraph;
  let firstUpdatedAt: number;

  beforeAll(async () => {
    graph = await startFakePhotoGraph('IGQ-token');
    site = await startServedSite({
      env: { PHOTO_FEED_ACCESS_TOKEN: 'IGQ-token', PHOTO_FEED_UPSTREAM_URL: graph.url },
      clock: true,
    });
  });
  afterAll(() => Promise.all([site.stop(), graph.close()]));

  it('answers the recent posts and reuses them for 5 minutes', async () => {
    const first = await getJson(site, '/api/photo-feed');
    expect(first.response.status).toBe(200);
    expect(first.body.configured).toBe(true);
    expect(first.body.items).toHaveLength(3);
    firstUpdatedAt = first.body.updatedAt;
    await site.advanceClock(4 * MINUTE);
    const second = await getJson(site, '/api/photo-feed');
    expect(second.body).toEqual(first.body);
    expect(graph.count('/me/media')).toBe(1);
  });

  it('fetches again once 5 minutes have passed', async () => {
    await site.advanceClock(MINUTE + 1_000);
    await getJson(site, '/api/photo-feed');
    await eventually(() => graph.count('/me/media') === 2);
    await eventually(async () => (await getJson(site, '/api/photo-feed')).body.updatedAt > firstUpdatedAt);
  });

  it('answers the last good feed with its honest time while the platform fails', async () => {
    const { body: good } = await getJson(site, '/api/photo-feed');
    graph.mode = 'error-500';
    await site.advanceClock(6 * MINUTE);
    const requestsBefore = graph.count('/me/media');
    await getJson(site, '/api/photo-feed');
    await eventually(() => graph.count('/me/media') > requestsBefore);
    const { response, body } = await getJson(site, '/api/photo-feed');
    expect(response.status).toBe(200);
    expect(body).toEqual(good);
  });

  it('answers 502 with Retry-After once the last good feed is over 24 hours old', async () => {
    await site.advanceClock(26 * HOUR);
    const { response, body } = await getJson(site, '/api/photo-feed');
    expect(response.status).toBe(502);
    expect(body).toEqual({ error: 'upstream unavailable' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('recovers once the platform answers again', async () => {
    graph.mode = 'ok';
    await site.advanceClock(31_000);
    const { response, body } = await getJson(site, '/api/photo-feed');
    expect(response.status).toBe(200);
    expect(body.items).toHaveLength(3);
  });
});
