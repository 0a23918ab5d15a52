import { createHash } from 'node:crypto';
import { createRecord, deleteRecords, listKeys, readRecord } from '../platform/store.ts';
import type { Run } from './job-runs.ts';
import {
  type ShareBaseline,
  ShareBaselineSchema,
  ShareClaimSchema,
  type ShareResult,
  ShareResultSchema,
} from './jobs-schemas.ts';
import type { FeedPost } from './site-feed-schemas.ts';

/**
 * The sharing job's ledger (src/jobs/network-share-job.ts) in the Blobs store `jobs`: what was
 * shared, one prefix per post (`network-share/posts/<digest of the post id>/`), written once key
 * by key:
 *
 * - `<n>-claim`: attempt n is taken by one run (`onlyIfNew`, so two runs never both hold it);
 * - `<n>-success` / `<n>-failure`: how attempt n ended.
 *
 * Beside it, `network-share/baseline`: the posts already in the feed at the first run.
 */

const BASELINE_KEY = 'network-share/baseline';
const POSTS_PREFIX = 'network-share/posts/';

/** A claim without a result older than this belongs to a run that stopped. */
export const CLAIM_LEASE_MS = 5 * 60_000;

type AttemptState = 'claim' | 'success' | 'failure';

/** What the ledger says about one post. */
export interface PostLedger {
  shared: boolean;
  failures: number;
  /** The next attempt number to claim. */
  next: number;
  /** An attempt claimed without a result yet (in progress, or its run stopped). */
  open: number | null;
}

/** A post id (often a URL) as a short key: SHA-256, hex. */
export function postKeyOf(postId: string): string {
  return createHash('sha256').update(`post:${postId}`).digest('hex').slice(0, 32);
}

const attemptKey = (postKey: string, attempt: number, state: AttemptState) =>
  `${POSTS_PREFIX}${postKey}/${String(attempt).padStart(3, '0')}-${state}`;

/** The baseline of posts present when sharing began; created (write-once) on the first run. */
export async function baselineFor(
  posts: readonly FeedPost[],
  now: number,
): Promise<ShareBaseline & { created: boolean }> {
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
export async function claim(post: FeedPost, state: PostLedger, run: Run): Promise<number | null> {
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

/** Gives an attempt back (deletes its claim): it does not count, and the post waits for the next run. */
export async function giveBack(post: FeedPost, attempt: number): Promise<void> {
  await deleteRecords('jobs', [attemptKey(postKeyOf(post.id), attempt, 'claim')]);
}

/** Records how an attempt ended. */
export async function recordResult(post: FeedPost, attempt: number, result: ShareResult): Promise<void> {
  await createRecord('jobs', attemptKey(postKeyOf(post.id), attempt, result.outcome), ShareResultSchema, result);
}
