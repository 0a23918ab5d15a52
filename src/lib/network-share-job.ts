import { createHash } from 'node:crypto';
import {
  type ShareBaseline,
  ShareBaselineSchema,
  ShareClaimSchema,
  ShareResultSchema,
  type StoredRun,
  StoredShareSchema,
} from '../schemas/jobs.ts';
import type { FeedPost } from '../schemas/site-feed.ts';
import { type Config, getConfig } from './config.ts';
import { UpstreamError } from './errors.ts';
import { type Run, type RunReport, runJob } from './job-runs.ts';
import { type ShareAnswer, type ShareTarget, sharePost } from './network-api.ts';
import { fetchSiteFeed } from './site-feed.ts';
import { createRecord, deleteRecords, listKeys, readRecord, writeRecord } from './store.ts';

/**
 * The automatic sharing job: reads the site's feed and shares each new post once to the
 * professional network. What was shared is a ledger in the Blobs store `jobs`, one prefix per
 * post (`network-share/posts/<digest of the post id>/`), written once key by key:
 *
 * - `<n>-claim`: attempt n is taken by one run (`onlyIfNew`, so two runs never both hold it);
 * - `<n>-success` / `<n>-failure`: how attempt n ended.
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
const BASELINE_KEY = 'network-share/baseline';
const POSTS_PREFIX = 'network-share/posts/';

/** At most this many shares per run: a backlog goes out over several runs, not as a burst. */
export const MAX_SHARES_PER_RUN = 3;
/** A post whose share failed this many times is given up (the status shows the last failure). */
export const MAX_FAILED_ATTEMPTS = 5;
/** A claim without a result older than this belongs to a run that stopped. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/**
 * Netlify stops a scheduled function after 30 s: no share is started past this (the feed takes at
 * most 2 × 5 s, a share at most 10 s), so that every started share is also recorded.
 */
export const RUN_BUDGET_MS = 15_000;

export interface NetworkShareOptions {
  feedTimeoutMs?: number | undefined;
  shareTimeoutMs?: number | undefined;
}

type AttemptState = 'claim' | 'success' | 'failure';

/** What the ledger says about one post. */
interface PostLedger {
  shared: boolean;
  failures: number;
  /** The next attempt number to claim. */
  next: number;
  /** An attempt claimed without a result yet (in progress, or its run stopped). */
  open: number | null;
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

/** A post id (often a URL) as a short key: SHA-256, hex. */
export function postKeyOf(postId: string): string {
  return createHash('sha256').update(`post:${postId}`).digest('hex').slice(0, 32);
}

const attemptKey = (postKey: string, attempt: number, state: AttemptState) =>
  `${POSTS_PREFIX}${postKey}/${String(attempt).padStart(3, '0')}-${state}`;

/** The baseline of posts present when sharing began; created (write-once) on the first run. */
async function baselineFor(posts: readonly FeedPost[], now: number): Promise<ShareBaseline & { created: boolean }> {
  const existing = await readRecord('jobs', BASELINE_KEY, ShareBaselineSchema);
  if (existing) return { ...existing, created: false };
  const baseline: ShareBaseline = { at: now, postIds: posts.map((post) => post.id) };
  if (await createRecord('jobs', BASELINE_KEY, ShareBaselineSchema, baseline)) return { ...baseline, created: true };
  // Another run wrote it first: use theirs.
  const theirs = await readRecord('jobs', BASELINE_KEY, ShareBaselineSchema);
  if (!theirs) throw new Error('the sharing baseline could not be read back');
  return { ...theirs, created: false };
}

/** Every post's state, from the ledger's key names alone (one listing, no reads). */
export async function readLedger(): Promise<Map<string, PostLedger>> {
  const attempts = new Map<string, Map<number, Set<AttemptState>>>();
  for (const key of await listKeys('jobs', POSTS_PREFIX)) {
    const match = /^network-share\/posts\/([0-9a-f]+)\/(\d+)-(claim|success|failure)$/.exec(key);
    if (!match) continue;
    const [, postKey, n, state] = match as unknown as [string, string, string, AttemptState];
    const byAttempt = attempts.get(postKey) ?? new Map<number, Set<AttemptState>>();
    const states = byAttempt.get(Number(n)) ?? new Set<AttemptState>();
    states.add(state);
    byAttempt.set(Number(n), states);
    attempts.set(postKey, byAttempt);
  }
  const ledger = new Map<string, PostLedger>();
  for (const [postKey, byAttempt] of attempts) {
    const numbers = [...byAttempt.keys()];
    const highest = Math.max(...numbers);
    const newest = byAttempt.get(highest);
    ledger.set(postKey, {
      shared: [...byAttempt.values()].some((states) => states.has('success')),
      failures: [...byAttempt.values()].filter((states) => states.has('failure')).length,
      next: highest + 1,
      open: newest && !newest.has('success') && !newest.has('failure') ? highest : null,
    });
  }
  return ledger;
}

/** Takes the next attempt on a post for this run; null when another run is on it. */
async function claim(post: FeedPost, state: PostLedger, run: Run): Promise<number | null> {
  const postKey = postKeyOf(post.id);
  if (state.open !== null) {
    const open = await readRecord('jobs', attemptKey(postKey, state.open, 'claim'), ShareClaimSchema);
    if (open && Date.now() - open.claimedAt < CLAIM_LEASE_MS) return null;
    // Otherwise the run that held it stopped: make a fresh attempt (if that one went through,
    // the network answers that the post is a duplicate).
  }
  const attempt = state.next;
  const key = attemptKey(postKey, attempt, 'claim');
  const record = { postId: post.id, url: post.url, title: post.title, runId: run.runId, claimedAt: Date.now() };
  if (!(await createRecord('jobs', key, ShareClaimSchema, record))) return null;
  // Netlify checks `onlyIfNew` atomically; a store that does not (the local Blobs server) is
  // caught here in all but the narrowest race.
  const holder = await readRecord('jobs', key, ShareClaimSchema);
  return holder?.runId === run.runId ? attempt : null;
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
  const postKey = postKeyOf(post.id);
  const at = Date.now();
  let outcome: 'success' | 'failure';
  let message: string;
  if (answer.kind === 'refused') {
    outcome = 'failure';
    message = answer.message;
    if (answer.stopRun) {
      // Not the post's fault: give the attempt back.
      await deleteRecords('jobs', [attemptKey(postKey, attempt, 'claim')]);
    } else {
      await createRecord('jobs', attemptKey(postKey, attempt, 'failure'), ShareResultSchema, {
        at,
        outcome,
        message,
        httpStatus: answer.status || null,
        networkPostId: null,
      });
    }
  } else {
    outcome = 'success';
    message = answer.kind === 'shared' ? 'shared' : 'already on the network (an earlier attempt went through)';
    await createRecord('jobs', attemptKey(postKey, attempt, 'success'), ShareResultSchema, {
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
