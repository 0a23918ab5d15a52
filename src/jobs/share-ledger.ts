import { createHash } from 'node:crypto';
import { createRecord, deleteRecords, listKeys, readRecord } from '../platform/store.ts';
import { MINUTE_MS } from '../platform/time-units.ts';
import type { Run } from './job-runs.ts';
import { ShareBaselineSchema, ShareClaimSchema, type ShareResult, ShareResultSchema } from './jobs-schemas.ts';
import type { FeedPost } from './site-feed.ts';

/**
 * The sharing job's write-once ledger in the Blobs store `jobs`, per post `network-share/posts/<digest>/`:
 * `<n>-claim` takes attempt n for one run (`onlyIfNew`: never two runs), `<n>-success` / `<n>-failure` end it.
 * Beside it, `network-share/baseline`: the posts already in the feed at the first run.
 */
const BASELINE_KEY = 'network-share/baseline';
const POSTS_PREFIX = 'network-share/posts/';

/** A claim without a result older than this belongs to a run that stopped. */
export const CLAIM_LEASE_MS = 5 * MINUTE_MS;

export interface PostLedger {
  shared: boolean;
  failures: number;
  /** The next attempt number to claim. */
  next: number;
  /** The newest attempt, when it is claimed without a result (in progress, or its run stopped). */
  open: number | null;
}

/** A post id (often a URL) as a short key. */
export function postKeyOf(postId: string): string {
  return createHash('sha256').update(`post:${postId}`).digest('hex').slice(0, 32);
}

const attemptKey = (post: FeedPost, attempt: number, state: 'claim' | 'success' | 'failure') =>
  `${POSTS_PREFIX}${postKeyOf(post.id)}/${String(attempt).padStart(3, '0')}-${state}`;

/** The posts present when sharing began, created (write-once) on the first run; `created` says if by this one. */
export async function baselineFor(posts: readonly FeedPost[], now: number) {
  const existing = await readRecord('jobs', BASELINE_KEY, ShareBaselineSchema);
  if (existing) return { ...existing, created: false };
  const baseline = { at: now, postIds: posts.map((post) => post.id) };
  if (await createRecord('jobs', BASELINE_KEY, ShareBaselineSchema, baseline)) return { ...baseline, created: true };
  // Another run wrote it first: use theirs.
  const theirs = await readRecord('jobs', BASELINE_KEY, ShareBaselineSchema);
  if (!theirs) throw new Error('the sharing baseline could not be read back');
  return { ...theirs, created: false };
}

/** Every post's state from the ledger's key names alone (one sorted listing, no reads). */
export async function readLedger(): Promise<Map<string, PostLedger>> {
  const ledger = new Map<string, PostLedger>();
  for (const key of await listKeys('jobs', POSTS_PREFIX)) {
    const [, postKey = '', digits, state] =
      /^network-share\/posts\/([0-9a-f]+)\/(\d+)-(claim|success|failure)$/.exec(key) ?? [];
    if (!state) continue;
    const post = ledger.get(postKey) ?? { shared: false, failures: 0, next: 0, open: null };
    if (state === 'success') post.shared = true;
    if (state === 'failure') post.failures++;
    // Per attempt the claim sorts before its result, so the newest attempt's last key decides.
    const attempt = Number(digits);
    if (attempt >= post.next - 1) {
      post.next = attempt + 1;
      post.open = state === 'claim' ? attempt : null;
    }
    ledger.set(postKey, post);
  }
  return ledger;
}

/** Takes the next attempt on a post for this run; null when another run is on it. */
export async function claim(post: FeedPost, state: PostLedger, run: Run): Promise<number | null> {
  if (state.open !== null) {
    const open = await readRecord('jobs', attemptKey(post, state.open, 'claim'), ShareClaimSchema);
    // Past the lease the run that held it stopped: a fresh attempt is safe, since the network
    // answers a duplicate if that one went through.
    if (open && Date.now() - open.claimedAt < CLAIM_LEASE_MS) return null;
  }
  const key = attemptKey(post, state.next, 'claim');
  const record = { postId: post.id, url: post.url, title: post.title, runId: run.runId, claimedAt: Date.now() };
  if (!(await createRecord('jobs', key, ShareClaimSchema, record))) return null;
  // Netlify checks `onlyIfNew` atomically; a store that does not is caught here in all but the narrowest race.
  const holder = await readRecord('jobs', key, ShareClaimSchema);
  return holder?.runId === run.runId ? state.next : null;
}

/** Gives an attempt back (deletes its claim): it does not count, and the post waits for the next run. */
export async function giveBack(post: FeedPost, attempt: number): Promise<void> {
  await deleteRecords('jobs', [attemptKey(post, attempt, 'claim')]);
}

export async function recordResult(post: FeedPost, attempt: number, result: ShareResult): Promise<void> {
  await createRecord('jobs', attemptKey(post, attempt, result.outcome), ShareResultSchema, result);
}
