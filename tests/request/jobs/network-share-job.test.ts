import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import networkShare, { config as networkShareConfig } from '../../../netlify/functions/network-share.mts';
import { scheduledInvocation } from '../../../server/functions.mts';
import { getNetworkStatus } from '../../../src/jobs/job-status.ts';
import { ShareClaimSchema } from '../../../src/jobs/jobs-schemas.ts';
import { sharePost } from '../../../src/jobs/network-api.ts';
import { MAX_FAILED_ATTEMPTS, MAX_SHARES_PER_RUN, runNetworkShareJob } from '../../../src/jobs/network-share-job.ts';
import { CLAIM_LEASE_MS, postKeyOf } from '../../../src/jobs/share-ledger.ts';
import { createRecord } from '../../../src/platform/store.ts';
import {
  type FakeNetworkApi,
  type FakePostFeed,
  type FeedEntry,
  startFakeNetworkApi,
  startFakePostFeed,
} from '../../support/fake-job-services.ts';
import { startLocalBlobs } from '../../support/local-blobs.ts';

const DAY = 86_400_000;
const TOKEN = 'network-token-1';
const AUTHOR = 'urn:li:person:abc123';

let feed: FakePostFeed;
let api: FakeNetworkApi;
let blobs: Awaited<ReturnType<typeof startLocalBlobs>>;

/** A post published `daysAgo` days ago (negative: in the future). */
const post = (n: number, daysAgo: number): FeedEntry => ({
  id: `https://example.com/posts/${n}/`,
  url: `https://example.com/posts/${n}/`,
  title: `Post ${n} (with #tags)`,
  summary: `What post ${n} says.`,
  date: new Date(Date.now() - daysAgo * DAY).toISOString(),
});

/** Puts posts in the feed, newest first as feeds list them. */
const publish = (...entries: FeedEntry[]) => {
  feed.posts = [...entries].sort((a, b) => b.date.localeCompare(a.date));
};

beforeAll(async () => {
  [feed, api] = await Promise.all([startFakePostFeed(), startFakeNetworkApi(TOKEN)]);
});
afterAll(() => Promise.all([feed.close(), api.close()]));
beforeEach(async () => {
  blobs = await startLocalBlobs();
  feed.reset();
  api.reset();
  Object.assign(process.env, {
    NETWORK_ACCESS_TOKEN: TOKEN,
    NETWORK_AUTHOR_URN: AUTHOR,
    NETWORK_FEED_URL: feed.jsonFeedUrl,
    NETWORK_API_URL: api.url,
    NETWORK_TOKEN_EXPIRES_AT: new Date(Date.now() + 30 * DAY).toISOString(),
  });
});
afterEach(async () => {
  for (const name of ['NETWORK_ACCESS_TOKEN', 'NETWORK_AUTHOR_URN', 'NETWORK_FEED_URL', 'NETWORK_API_URL']) {
    delete process.env[name];
  }
  delete process.env.NETWORK_TOKEN_EXPIRES_AT;
  await blobs.stop();
});

/** The first run takes what is in the feed as already shared. */
async function baseline(...entries: FeedEntry[]) {
  publish(...entries);
  const run = await runNetworkShareJob();
  expect(run.outcome).toBe('success');
  return run;
}

describe('the first run', () => {
  it('takes the posts already in the feed as shared before, and shares nothing', async () => {
    const run = await baseline(post(1, 10), post(2, 5));
    expect(run.message).toBe(
      'first run: the 2 posts already in the feed count as shared before; posts published from now on are shared',
    );
    expect(api.requests).toHaveLength(0);
  });
});

describe('sharing a new post', () => {
  it('creates one article post with the API version headers, then never again', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01));
    const run = await runNetworkShareJob();
    expect(run).toMatchObject({
      outcome: 'success',
      message: 'shared 1 new post',
      shares: { shared: 1, failed: 0, waiting: 0 },
    });
    expect(api.posts).toHaveLength(1);
    const [created] = api.posts;
    expect(created).toMatchObject({
      author: AUTHOR,
      source: 'https://example.com/posts/2/',
      title: 'Post 2 (with #tags)',
      commentary: 'Post 2 \\(with \\#tags\\)\n\nWhat post 2 says.',
    });
    expect(created?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'linkedin-version': '202610',
      'x-restli-protocol-version': '2.0.0',
      'content-type': 'application/json',
    });

    const again = await runNetworkShareJob();
    expect(again).toMatchObject({ outcome: 'success', message: 'no new posts to share' });
    expect(api.requests).toHaveLength(1);

    const status = await getNetworkStatus();
    expect(status).toMatchObject({
      job: 'network-share',
      status: 'ok',
      token: { configured: true, fresh: true, daysLeft: 29 },
      lastShare: {
        url: 'https://example.com/posts/2/',
        title: 'Post 2 (with #tags)',
        outcome: 'success',
        message: 'shared',
      },
    });
  });

  it('leaves a post dated in the future until its day', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, -1));
    expect(await runNetworkShareJob()).toMatchObject({ message: 'no new posts to share' });
    expect(api.requests).toHaveLength(0);
  });

  it(`shares at most ${MAX_SHARES_PER_RUN} posts a run, oldest first, and the rest on the next run`, async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.5), post(3, 0.4), post(4, 0.3), post(5, 0.2), post(6, 0.1));
    const first = await runNetworkShareJob();
    expect(first).toMatchObject({ outcome: 'success', shares: { shared: 3, failed: 0, waiting: 2 } });
    expect(first.message).toBe('shared 3 new posts; 2 waiting for the next run');
    expect(api.posts.map((p) => p.source)).toEqual([2, 3, 4].map((n) => `https://example.com/posts/${n}/`));
    await runNetworkShareJob();
    expect(api.posts.map((p) => p.source)).toEqual([2, 3, 4, 5, 6].map((n) => `https://example.com/posts/${n}/`));
  });
});

describe('when the posting API refuses', () => {
  it('does not count a rejected token against the post, which goes out once the token works', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01), post(3, 0.005));
    api.validToken = 'a-newer-token';
    for (let i = 0; i < MAX_FAILED_ATTEMPTS + 1; i++) {
      const run = await runNetworkShareJob();
      // One refused call stops the run: the other post is not tried with the same token.
      expect(run).toMatchObject({ outcome: 'failure', shares: { shared: 0, failed: 1, waiting: 1 } });
      expect(run.message).toBe('1 share failed: posting API rejected the token (401); 1 waiting for the next run');
    }
    expect(api.requests).toHaveLength(MAX_FAILED_ATTEMPTS + 1);
    expect(await getNetworkStatus()).toMatchObject({
      status: 'failing',
      lastShare: { outcome: 'failure', message: 'posting API rejected the token (401)' },
    });

    api.validToken = TOKEN;
    expect(await runNetworkShareJob()).toMatchObject({ outcome: 'success', message: 'shared 2 new posts' });
    expect(api.posts).toHaveLength(2);
  });

  it(`retries a failing post on later runs and gives it up after ${MAX_FAILED_ATTEMPTS} failures`, async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01));
    api.mode = 'error-500';
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      expect(await runNetworkShareJob()).toMatchObject({
        outcome: 'failure',
        message: '1 share failed: posting API failed (500)',
      });
    }
    api.mode = 'ok';
    expect(await runNetworkShareJob()).toMatchObject({ outcome: 'success', message: 'no new posts to share' });
    expect(api.requests).toHaveLength(MAX_FAILED_ATTEMPTS);
    expect(api.posts).toHaveLength(0);
    expect((await getNetworkStatus()).lastShare).toMatchObject({
      outcome: 'failure',
      message: 'posting API failed (500)',
    });
  });

  it('counts a post whose answer was lost as shared once the network reports the duplicate', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01));
    api.loseAnswers = 1;
    expect(await runNetworkShareJob()).toMatchObject({
      outcome: 'failure',
      message: '1 share failed: posting API: network error',
    });
    expect(api.posts).toHaveLength(1);
    expect(await runNetworkShareJob()).toMatchObject({ outcome: 'success', message: 'shared 1 new post' });
    expect(api.posts).toHaveLength(1);
    expect((await getNetworkStatus()).lastShare).toMatchObject({
      outcome: 'success',
      message: 'already on the network (an earlier attempt went through)',
    });
  });
});

describe('claims on a post', () => {
  const claimOf = async (entry: FeedEntry, ageMs: number) => {
    await createRecord('jobs', `network-share/posts/${postKeyOf(entry.id)}/000-claim`, ShareClaimSchema, {
      postId: entry.id,
      url: entry.url,
      title: entry.title,
      runId: 'a-run-that-stopped',
      claimedAt: Date.now() - ageMs,
    });
  };

  it('leaves a post that another run is sharing right now', async () => {
    await baseline(post(1, 10));
    const fresh = post(2, 0.01);
    publish(post(1, 10), fresh);
    await claimOf(fresh, 1_000);
    expect(await runNetworkShareJob()).toMatchObject({
      outcome: 'success',
      shares: { shared: 0, failed: 0, waiting: 1 },
    });
    expect(api.requests).toHaveLength(0);
  });

  it('takes over the claim of a run that stopped after sharing but before recording it', async () => {
    await baseline(post(1, 10));
    const entry = post(2, 0.01);
    publish(post(1, 10), entry);
    // The stopped run had claimed the post and its call went through: the network has the post.
    await claimOf(entry, CLAIM_LEASE_MS + 1_000);
    const target = { apiUrl: api.url, version: '202610', token: TOKEN, authorUrn: AUTHOR };
    const summary = entry.summary ?? null;
    await sharePost(target, { id: entry.id, url: entry.url, title: entry.title, summary, publishedAt: null });
    expect(api.posts).toHaveLength(1);

    expect(await runNetworkShareJob()).toMatchObject({ outcome: 'success', message: 'shared 1 new post' });
    expect(api.posts).toHaveLength(1);
    expect(api.requests).toHaveLength(2);
  });

  it('lets two runs at once share a new post only once', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01), post(3, 0.005));
    const runs = await Promise.all([runNetworkShareJob(), runNetworkShareJob(), runNetworkShareJob()]);
    expect(api.posts.map((p) => p.source).sort()).toEqual([
      'https://example.com/posts/2/',
      'https://example.com/posts/3/',
    ]);
    const shared = runs.reduce((sum, run) => sum + (run.shares?.shared ?? 0), 0);
    expect(shared).toBeGreaterThanOrEqual(2);
    expect(await runNetworkShareJob()).toMatchObject({ message: 'no new posts to share' });
  });
});

describe('a run that cannot share', () => {
  it('does not call the API with an expired token, and the status says failing', async () => {
    await baseline(post(1, 10));
    publish(post(1, 10), post(2, 0.01));
    process.env.NETWORK_TOKEN_EXPIRES_AT = new Date(Date.now() - 60_000).toISOString();
    const run = await runNetworkShareJob();
    expect(run.outcome).toBe('failure');
    expect(run.message).toMatch(
      /^the access token expired at .+: set a new NETWORK_ACCESS_TOKEN and NETWORK_TOKEN_EXPIRES_AT$/,
    );
    expect(api.requests).toHaveLength(0);
    expect(await getNetworkStatus()).toMatchObject({
      status: 'failing',
      token: { configured: true, fresh: false, daysLeft: 0 },
    });
  });

  it('names the settings that are missing', async () => {
    delete process.env.NETWORK_AUTHOR_URN;
    delete process.env.NETWORK_FEED_URL;
    expect(await runNetworkShareJob()).toMatchObject({
      outcome: 'failure',
      message: 'not configured: set NETWORK_AUTHOR_URN, NETWORK_FEED_URL',
    });
  });

  it.each([
    ['answers 500 twice', () => feed.failNext(2, 'error-500'), 'post feed: answered 500'],
    ['is not a feed', () => feed.failNext(1, 'invalid-json'), 'post feed: body is not JSON'],
  ])('fails when the feed %s', async (_name, breakFeed, message) => {
    await baseline(post(1, 10));
    breakFeed();
    expect(await runNetworkShareJob()).toMatchObject({ outcome: 'failure', message });
  });
});

describe('the network-share function', () => {
  it('runs hourly and answers the recorded run', async () => {
    expect(networkShareConfig).toEqual({ schedule: '@hourly' });
    publish(post(1, 10));
    const response = await networkShare(
      ...scheduledInvocation('network-share', { siteUrl: 'http://localhost', nextRun: null, waitUntil: () => {} }),
    );
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ job: 'network-share', outcome: 'success' });
    expect(body).not.toContain(TOKEN);
  });
});
