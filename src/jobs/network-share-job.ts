import { type Config, getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { writeRecord } from '../platform/store.ts';
import { type Run, type RunReport, runJob } from './job-runs.ts';
import { type ShareBaseline, type StoredRun, StoredShareSchema } from './jobs-schemas.ts';
import { type ShareAnswer, type ShareTarget, sharePost } from './network-api.ts';
import { baselineFor, claim, giveBack, type PostLedger, postKeyOf, readLedger, recordResult } from './share-ledger.ts';
import { fetchSiteFeed } from './site-feed.ts';
import type { FeedPost } from './site-feed-schemas.ts';

/**
 * The automatic sharing job: reads the site's feed and shares each new post once to the
 * professional network. What was shared is a write-once ledger in Blobs (src/jobs/share-ledger.ts).
 *
 * A post with a success is never shared again. A failed attempt is retried by later runs, at
 * most MAX_FAILED_ATTEMPTS times. When the token is refused or the API rate limits, the claim
 * is deleted instead: that attempt does not count and the post waits for the next run.
 *
 * If the API call succeeded but its result could not be recorded (Blobs failed, or the run was
 * stopped), the claim stays without a result. After CLAIM_LEASE_MS a later run tries again with
 * the same content, and the network answers 422 DUPLICATE_POST, which is recorded as shared: the
 * post appears once on the network. Posts already in the feed at the first run are a baseline
 * and are never shared: the job shares what is published from then on.
 */

export const LAST_SHARE_KEY = 'network-share/last-share';

/** At most this many shares per run: a backlog goes out over several runs, not as a burst. */
export const MAX_SHARES_PER_RUN = 3;
/** A post whose share failed this many times is given up (the status shows the last failure). */
export const MAX_FAILED_ATTEMPTS = 5;
/**
 * Netlify stops a scheduled function after 30 s: no share is started past this (the feed takes at
 * most 2 × 5 s, a share at most 10 s), so that every started share is also recorded.
 */
export const RUN_BUDGET_MS = 15_000;

export interface NetworkShareOptions {
  feedTimeoutMs?: number | undefined;
  shareTimeoutMs?: number | undefined;
}

export async function runNetworkShareJob(options: NetworkShareOptions = {}): Promise<StoredRun> {
  return runJob('network-share', (run) => shareNewPosts(run, options));
}

async function shareNewPosts(run: Run, options: NetworkShareOptions): Promise<RunReport> {
  const config = getConfig();
  const target = shareTargetOf(config);
  if ('missing' in target) {
    return { outcome: 'failure', message: `not configured: set ${target.missing.join(', ')}`, shares: noShares };
  }
  const expiresAt = config.NETWORK_TOKEN_EXPIRES_AT;
  if (expiresAt && Date.parse(expiresAt) <= Date.now()) {
    return {
      outcome: 'failure',
      message: `the access token expired at ${new Date(expiresAt).toISOString()}: set a new NETWORK_ACCESS_TOKEN and NETWORK_TOKEN_EXPIRES_AT`,
      shares: noShares,
    };
  }

  let posts: FeedPost[];
  try {
    posts = await fetchSiteFeed(target.feedUrl, { timeoutMs: options.feedTimeoutMs });
  } catch (error) {
    if (error instanceof UpstreamError) return { outcome: 'failure', message: error.message, shares: noShares };
    throw error;
  }
  const now = Date.now();
  // A post dated in the future is not live yet (the daily build publishes it on its day).
  const live = posts.filter((post) => post.publishedAt === null || post.publishedAt <= now);

  let baseline: ShareBaseline & { created: boolean };
  let ledger: Map<string, PostLedger>;
  try {
    baseline = await baselineFor(live, now);
    ledger = baseline.created ? new Map() : await readLedger();
  } catch (error) {
    console.warn(`Sharing job: ledger unavailable: ${(error as Error).message}`);
    return {
      outcome: 'failure',
      message: 'the record of shared posts is unavailable: nothing was shared, to never share a post twice',
      shares: noShares,
    };
  }
  if (baseline.created) {
    return {
      outcome: 'success',
      message: `first run: the ${live.length} posts already in the feed count as shared before; posts published from now on are shared`,
      shares: noShares,
    };
  }

  const known = new Set(baseline.postIds);
  const due = live.flatMap((post) => {
    if (known.has(post.id)) return [];
    const state = ledger.get(postKeyOf(post.id)) ?? { shared: false, failures: 0, next: 0, open: null };
    return state.shared || state.failures >= MAX_FAILED_ATTEMPTS ? [] : [{ post, state }];
  });

  let shared = 0;
  let failed = 0;
  let handled = 0;
  let firstProblem: string | null = null;
  for (const { post, state } of due) {
    if (handled >= MAX_SHARES_PER_RUN || Date.now() - run.startedAt > RUN_BUDGET_MS) break;
    const attempt = await claim(post, state, run);
    if (attempt === null) continue; // another run holds it
    handled++;
    const result = await shareOnce(target, post, attempt, run, options);
    if (result.outcome === 'success') shared++;
    else {
      failed++;
      firstProblem ??= result.message;
    }
    if (result.stopRun) break;
  }
  const waiting = due.length - shared - failed;
  return {
    outcome: failed > 0 ? 'failure' : 'success',
    message: summary(shared, failed, waiting, firstProblem),
    shares: { shared, failed, waiting },
  };
}

const noShares = { shared: 0, failed: 0, waiting: 0 };

function shareTargetOf(config: Config): (ShareTarget & { feedUrl: string }) | { missing: string[] } {
  const { NETWORK_ACCESS_TOKEN: token, NETWORK_AUTHOR_URN: authorUrn, NETWORK_FEED_URL: feedUrl } = config;
  if (!token || !authorUrn || !feedUrl) {
    const missing = Object.entries({
      NETWORK_ACCESS_TOKEN: token,
      NETWORK_AUTHOR_URN: authorUrn,
      NETWORK_FEED_URL: feedUrl,
    })
      .filter(([, value]) => !value)
      .map(([name]) => name);
    return { missing };
  }
  return { apiUrl: config.NETWORK_API_URL, version: config.NETWORK_API_VERSION, token, authorUrn, feedUrl };
}

function summary(shared: number, failed: number, waiting: number, problem: string | null): string {
  if (shared === 0 && failed === 0 && waiting === 0) return 'no new posts to share';
  const parts: string[] = [];
  if (shared > 0) parts.push(`shared ${shared} new post${shared === 1 ? '' : 's'}`);
  if (failed > 0) parts.push(`${failed} share${failed === 1 ? '' : 's'} failed: ${problem}`);
  if (waiting > 0) parts.push(`${waiting} waiting for the next run`);
  return parts.join('; ');
}

/** One attempt at one post, recorded in the ledger and as the last share. */
async function shareOnce(
  target: ShareTarget,
  post: FeedPost,
  attempt: number,
  run: Run,
  options: NetworkShareOptions,
): Promise<{ outcome: 'success' | 'failure'; message: string; stopRun: boolean }> {
  let answer: ShareAnswer;
  try {
    answer = await sharePost(target, post, { timeoutMs: options.shareTimeoutMs });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    // No answer: it may or may not have been created; a retry is safe (the network dedupes).
    answer = { kind: 'refused', status: 0, message: error.message, retryLater: true, stopRun: false };
  }
  const at = Date.now();
  let outcome: 'success' | 'failure';
  let message: string;
  if (answer.kind === 'refused') {
    outcome = 'failure';
    message = answer.message;
    // Not the post's fault when the run stops (token, rate limit): the attempt is given back.
    if (answer.stopRun) await giveBack(post, attempt);
    else
      await recordResult(post, attempt, {
        at,
        outcome,
        message,
        httpStatus: answer.status || null,
        networkPostId: null,
      });
  } else {
    outcome = 'success';
    message = answer.kind === 'shared' ? 'shared' : 'already on the network (an earlier attempt went through)';
    await recordResult(post, attempt, {
      at,
      outcome,
      message,
      httpStatus: answer.status,
      networkPostId: answer.networkPostId,
    });
  }
  await writeRecord('jobs', LAST_SHARE_KEY, StoredShareSchema, {
    at,
    url: post.url,
    title: post.title,
    outcome,
    message,
  });
  if (outcome === 'failure') console.warn(`Sharing job ${run.runId}: ${post.url}: ${message}`);
  return { outcome, message, stopRun: answer.kind === 'refused' && answer.stopRun };
}
