import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { writeRecord } from '../platform/store.ts';
import { type Run, type RunReport, runJob, upstreamErrorOf } from './job-runs.ts';
import { type StoredRun, StoredShareSchema } from './jobs-schemas.ts';
import { type ShareAnswer, type ShareTarget, sharePost } from './network-api.ts';
import { baselineFor, claim, giveBack, type PostLedger, postKeyOf, readLedger, recordResult } from './share-ledger.ts';
import { type FeedPost, fetchSiteFeed } from './site-feed.ts';

/**
 * Shares each new post of the site's feed once, as recorded in a write-once ledger (share-ledger.ts); posts in
 * the feed at the first run are a baseline, never shared. Later runs retry a failed attempt (MAX_FAILED_ATTEMPTS);
 * a refused token or a rate limit gives it back instead. A share whose result went unrecorded is retried after
 * CLAIM_LEASE_MS, answered 422 DUPLICATE_POST and recorded as shared: the post appears once.
 */
export const LAST_SHARE_KEY = 'network-share/last-share';

/** A backlog goes out over several runs, not as a burst. */
export const MAX_SHARES_PER_RUN = 3;
export const MAX_FAILED_ATTEMPTS = 5;
/** Netlify stops a scheduled function after 30 s; the feed takes at most 2 × 5 s, a share 10 s. */
const RUN_BUDGET_MS = 15_000;

const noShares = { shared: 0, failed: 0, waiting: 0 };
const failure = (message: string): RunReport => ({ outcome: 'failure', message, shares: noShares });

export async function runNetworkShareJob(): Promise<StoredRun> {
  return runJob('network-share', shareNewPosts);
}

async function shareNewPosts(run: Run): Promise<RunReport> {
  const config = getConfig();
  const { NETWORK_ACCESS_TOKEN: token, NETWORK_AUTHOR_URN: authorUrn, NETWORK_FEED_URL: feedUrl } = config;
  const required = { NETWORK_ACCESS_TOKEN: token, NETWORK_AUTHOR_URN: authorUrn, NETWORK_FEED_URL: feedUrl };
  const missing = Object.entries(required).flatMap(([name, value]) => (value ? [] : [name]));
  if (!token || !authorUrn || !feedUrl) return failure(`not configured: set ${missing.join(', ')}`);
  const expiresAt = config.NETWORK_TOKEN_EXPIRES_AT;
  if (expiresAt && Date.parse(expiresAt) <= Date.now()) {
    return failure(
      `the access token expired at ${new Date(expiresAt).toISOString()}: set a new NETWORK_ACCESS_TOKEN and NETWORK_TOKEN_EXPIRES_AT`,
    );
  }
  const target: ShareTarget = { apiUrl: config.NETWORK_API_URL, version: config.NETWORK_API_VERSION, token, authorUrn };

  const posts = await fetchSiteFeed(feedUrl).catch(upstreamErrorOf);
  if (posts instanceof UpstreamError) return failure(posts.message);
  const now = Date.now();
  // A post dated in the future is not live yet (the daily build publishes it on its day).
  const live = posts.filter((post) => post.publishedAt === null || post.publishedAt <= now);

  let known: Set<string>;
  let ledger: Map<string, PostLedger>;
  try {
    const baseline = await baselineFor(live, now);
    if (baseline.created) {
      const message = `first run: the ${live.length} posts already in the feed count as shared before; posts published from now on are shared`;
      return { outcome: 'success', message, shares: noShares };
    }
    known = new Set(baseline.postIds);
    ledger = await readLedger();
  } catch (error) {
    console.warn(`Sharing job: ledger unavailable: ${(error as Error).message}`);
    return failure('the record of shared posts is unavailable: nothing was shared, to never share a post twice');
  }

  const due = live.flatMap((post) => {
    const state = ledger.get(postKeyOf(post.id)) ?? { shared: false, failures: 0, next: 0, open: null };
    return known.has(post.id) || state.shared || state.failures >= MAX_FAILED_ATTEMPTS ? [] : [{ post, state }];
  });
  let shared = 0;
  let failed = 0;
  let problem: string | null = null;
  for (const { post, state } of due) {
    if (shared + failed >= MAX_SHARES_PER_RUN || Date.now() - run.startedAt > RUN_BUDGET_MS) break;
    const attempt = await claim(post, state, run);
    if (attempt === null) continue; // another run holds it
    const result = await shareOnce(target, post, attempt, run);
    if (result.outcome === 'success') shared++;
    else {
      failed++;
      problem ??= result.message;
    }
    if (result.stopRun) break;
  }
  const waiting = due.length - shared - failed;
  const parts = [
    shared > 0 && `shared ${shared} new post${shared === 1 ? '' : 's'}`,
    failed > 0 && `${failed} share${failed === 1 ? '' : 's'} failed: ${problem}`,
    waiting > 0 && `${waiting} waiting for the next run`,
  ].filter(Boolean);
  return {
    outcome: failed > 0 ? 'failure' : 'success',
    message: parts.length > 0 ? parts.join('; ') : 'no new posts to share',
    shares: { shared, failed, waiting },
  };
}

/** One attempt at one post, recorded in the ledger and as the last share. */
async function shareOnce(target: ShareTarget, post: FeedPost, attempt: number, run: Run) {
  // No answer: it may or may not have been created; a retry is safe (the network dedupes).
  const answer = await sharePost(target, post).catch(
    (error): ShareAnswer => ({ kind: 'refused', status: 0, message: upstreamErrorOf(error).message, stopRun: false }),
  );
  const at = Date.now();
  const refused = answer.kind === 'refused';
  const outcome = refused ? 'failure' : 'success';
  const message = refused
    ? answer.message
    : answer.kind === 'shared'
      ? 'shared'
      : 'already on the network (an earlier attempt went through)';
  const stopRun = refused && answer.stopRun;
  // Not the post's fault when the run stops (token, rate limit): the attempt is given back.
  if (stopRun) await giveBack(post, attempt);
  else {
    const networkPostId = refused ? null : answer.networkPostId;
    await recordResult(post, attempt, { at, outcome, message, httpStatus: answer.status || null, networkPostId });
  }
  await writeRecord('jobs', LAST_SHARE_KEY, StoredShareSchema, {
    at,
    url: post.url,
    title: post.title,
    outcome,
    message,
  });
  if (refused) console.warn(`Sharing job ${run.runId}: ${post.url}: ${message}`);
  return { outcome, message, stopRun };
}
