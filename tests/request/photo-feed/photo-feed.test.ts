import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import photoTokenRefresh, { config as refreshConfig } from '../../../netlify/functions/photo-token-refresh.mts';
import { scheduledInvocation } from '../../../server/functions.mts';
import { getPhotoFeed, resetPhotoFeedMemory } from '../../../src/photo-feed/photo-feed.ts';
import { PhotoFeedSchema, StoredPhotoTokenSchema } from '../../../src/photo-feed/photo-feed-schemas.ts';
import { currentPhotoToken, lineageOf, runPhotoTokenRefreshJob } from '../../../src/photo-feed/photo-token.ts';
import { readRecord, writeRecord } from '../../../src/platform/store.ts';
import { type FakePhotoGraph, startFakePhotoGraph } from '../../support/fake-job-services.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

const DAY = 86_400_000;
const INITIAL = 'IGQ-initial-token';

let graph: FakePhotoGraph;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

beforeAll(async () => {
  graph = await startFakePhotoGraph(INITIAL);
});
afterAll(() => graph.close());
beforeEach(async () => {
  blobs = await startLocalBlobs();
  resetPhotoFeedMemory();
  graph.reset();
  process.env.PHOTO_FEED_ACCESS_TOKEN = INITIAL;
  process.env.PHOTO_FEED_UPSTREAM_URL = graph.url;
});
afterEach(async () => {
  vi.useRealTimers();
  delete process.env.PHOTO_FEED_ACCESS_TOKEN;
  delete process.env.PHOTO_FEED_UPSTREAM_URL;
  await blobs.stop();
});

/** Stores a refreshed token of the configured lineage, as a refresh `ageDays` ago would have. */
async function storeToken(token: string, ageDays: number, leftDays: number) {
  const now = Date.now();
  graph.tokens.set(token, now + leftDays * DAY);
  await writeRecord('photo-feed', 'token', StoredPhotoTokenSchema, {
    accessToken: token,
    lineage: lineageOf(INITIAL),
    refreshedAt: now - ageDays * DAY,
    // A minute more, so that whole days left read the same when the job looks a moment later.
    expiresAt: now + leftDays * DAY + 60_000,
  });
}

const mediaTokens = () => graph.requests.filter((r) => r.path === '/me/media').map((r) => r.query.get('access_token'));

describe('the photo feed', () => {
  it('is empty and says so when no token is configured, without calling the platform', async () => {
    delete process.env.PHOTO_FEED_ACCESS_TOKEN;
    expect((await getPhotoFeed()).body).toEqual({ configured: false, updatedAt: null, items: [] });
    expect(graph.requests).toHaveLength(0);
  });

  it('asks for the documented fields and answers the recent posts', async () => {
    const before = Date.now();
    const { body, fallback, maxAgeSeconds } = await getPhotoFeed();
    expect(PhotoFeedSchema.parse(body)).toEqual(body);
    expect(body.configured).toBe(true);
    expect(body.updatedAt).toBeGreaterThanOrEqual(before);
    expect(body.items.map((item) => item.mediaType)).toEqual(['image', 'video', 'carousel']);
    expect(fallback).toBe(false);
    expect(maxAgeSeconds).toBe(300);
    const [request] = graph.requests;
    expect(request?.query.get('fields')).toBe('id,caption,media_type,media_url,permalink,timestamp,thumbnail_url');
    expect(request?.query.get('limit')).toBe('12');
  });

  it('answers an empty feed when the account has no posts', async () => {
    graph.media = '{"data":[]}';
    expect((await getPhotoFeed()).body).toMatchObject({ configured: true, items: [] });
  });

  it('reuses a fetch for 5 minutes, from memory and from Blobs (another instance)', async () => {
    await getPhotoFeed();
    await getPhotoFeed();
    resetPhotoFeedMemory();
    const { body } = await getPhotoFeed();
    expect(body.items).toHaveLength(3);
    expect(graph.count('/me/media')).toBe(1);
  });

  it('makes one upstream request for many callers at once', async () => {
    graph.delayMs = 200;
    const answers = await Promise.all(Array.from({ length: 20 }, () => getPhotoFeed()));
    expect(graph.count('/me/media')).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.updatedAt)).size).toBe(1);
  });

  it('answers the last feed at once, without queueing, while a slow refresh is under way', async () => {
    const first = await getPhotoFeed();
    const answeredBefore = graph.answered('/me/media');
    // Only `Date` is faked: the servers and the upstream's delay run on real timers.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
    graph.delayMs = 2_000;
    const refresh = getPhotoFeed();
    await vi.waitFor(() => expect(graph.count('/me/media')).toBe(2), { interval: 5, timeout: 5_000 });
    const during = await getPhotoFeed();
    expect(during).toMatchObject({ fallback: false, maxAgeSeconds: 5 });
    expect(during.body.updatedAt).toBe(first.body.updatedAt);
    // Answered while the refresh still waits for the platform: nobody queued behind it.
    expect(graph.answered('/me/media')).toBe(answeredBefore);
    expect((await refresh).body.updatedAt).toBeGreaterThan(first.body.updatedAt ?? 0);
  });

  it.each([
    ['an expired token (code 190)', () => graph.tokens.set(INITIAL, 0)],
    ['a server error', () => (graph.mode = 'error-500')],
    ['a body that is not JSON', () => (graph.mode = 'invalid-json')],
  ])('answers 502 with Retry-After on %s with nothing to fall back on', async (_name, breakGraph) => {
    breakGraph();
    await expect(getPhotoFeed()).rejects.toMatchObject({
      status: 502,
      message: 'upstream unavailable',
      headers: { 'Retry-After': '30' },
    });
  });

  it('uses the refreshed token once there is one', async () => {
    await storeToken('IGQ-refreshed-elsewhere', 2, 58);
    await getPhotoFeed();
    expect(mediaTokens()).toEqual(['IGQ-refreshed-elsewhere']);
  });

  it('ignores a refreshed token of a previously configured token', async () => {
    await storeToken('IGQ-of-the-old-account', 2, 58);
    process.env.PHOTO_FEED_ACCESS_TOKEN = 'IGQ-new-account';
    graph.tokens.set('IGQ-new-account', Date.now() + 60 * DAY);
    expect(await currentPhotoToken()).toBe('IGQ-new-account');
  });
});

describe('the photo token refresh job', () => {
  it('refreshes a token of unknown age, keeps the new one in Blobs, and the feed uses it', async () => {
    const run = await runPhotoTokenRefreshJob();
    expect(run).toMatchObject({ job: 'photo-token-refresh', outcome: 'success' });
    expect(run.message).toMatch(
      /^refreshed \(the configured token has not been refreshed yet\); the token now expires at /,
    );
    const refresh = graph.requests.find((r) => r.path === '/refresh_access_token');
    expect(refresh?.query.get('grant_type')).toBe('ig_refresh_token');
    expect(refresh?.query.get('access_token')).toBe(INITIAL);

    const stored = await readRecord('photo-feed', 'token', StoredPhotoTokenSchema);
    expect(stored).toMatchObject({ accessToken: 'IGQ-refreshed-1', lineage: lineageOf(INITIAL) });
    expect((stored?.expiresAt ?? 0) - (stored?.refreshedAt ?? 0)).toBe(60 * DAY);

    await getPhotoFeed();
    expect(mediaTokens()).toEqual(['IGQ-refreshed-1']);
  });

  it('refreshes a token near its expiry with that token', async () => {
    await storeToken('IGQ-near-expiry', 57, 3);
    const run = await runPhotoTokenRefreshJob();
    expect(run.outcome).toBe('success');
    expect(run.message).toMatch(/^refreshed \(\d days left\)/);
    expect(graph.requests.map((r) => r.query.get('access_token'))).toEqual(['IGQ-near-expiry']);
    expect((await readRecord('photo-feed', 'token', StoredPhotoTokenSchema))?.accessToken).toMatch(/^IGQ-refreshed-/);
  });

  it.each([
    ['less than a day old', 0.5, 59, 'not refreshed: refreshed 12 h ago; it can be refreshed after 24 h'],
    ['far from its expiry', 10, 50, 'not refreshed: 50 days left; refreshed when 30 or fewer are left'],
  ])('leaves a token %s alone', async (_name, ageDays, leftDays, message) => {
    await storeToken('IGQ-fine', ageDays, leftDays);
    const run = await runPhotoTokenRefreshJob();
    expect(run).toMatchObject({ outcome: 'success' });
    expect(run.message).toBe(message);
    expect(graph.requests).toHaveLength(0);
  });

  it('fails without calling the platform when the token has expired', async () => {
    await storeToken('IGQ-expired', 61, -1);
    const run = await runPhotoTokenRefreshJob();
    expect(run.outcome).toBe('failure');
    expect(run.message).toMatch(
      /^the token expired at .+: configure a new long-lived token in PHOTO_FEED_ACCESS_TOKEN$/,
    );
    expect(graph.requests).toHaveLength(0);
  });

  it('fails with a hint when the platform rejects the token (code 190)', async () => {
    graph.tokens.set(INITIAL, 0);
    const run = await runPhotoTokenRefreshJob();
    expect(run).toMatchObject({
      outcome: 'failure',
      message:
        'refresh failed: photo platform rejected the token as expired or invalid (400, code 190): configure a new long-lived token in PHOTO_FEED_ACCESS_TOKEN',
    });
  });

  it('fails and tries again next time when the platform is slow', async () => {
    graph.mode = 'hang';
    const run = await runPhotoTokenRefreshJob({ timeoutMs: 200 });
    expect(run).toMatchObject({
      outcome: 'failure',
      message: 'refresh failed: photo platform: no answer within 200 ms; the next run tries again',
    });
    expect(await readRecord('photo-feed', 'token', StoredPhotoTokenSchema)).toBeNull();
  });

  it('has nothing to do when the feed is not configured', async () => {
    delete process.env.PHOTO_FEED_ACCESS_TOKEN;
    expect(await runPhotoTokenRefreshJob()).toMatchObject({
      outcome: 'success',
      message: 'the photo feed is not configured (PHOTO_FEED_ACCESS_TOKEN): nothing to refresh',
    });
  });

  it('runs daily as a function whose answer never shows a token', async () => {
    expect(refreshConfig).toEqual({ schedule: '30 3 * * *' });
    const invocation = { siteUrl: 'http://localhost', nextRun: null, waitUntil: () => {} };
    const response = await photoTokenRefresh(...scheduledInvocation('photo-token-refresh', invocation));
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toContain('IGQ-');
  });
});
