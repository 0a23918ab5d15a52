import { callUpstream } from '../platform/upstream-http.ts';
import * as z from '../platform/zod-mini.ts';
import type { FeedPost } from './site-feed-schemas.ts';

/** One post creation; no retry inside a run (a POST is not idempotent), the next run retries. */
export const SHARE_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;
/** The posting API's limit for `commentary`. */
export const MAX_COMMENTARY = 3000;

export interface ShareTarget {
  /** API base, e.g. https://api.linkedin.com (posts go to `{base}/rest/posts`). */
  apiUrl: string;
  version: string;
  token: string;
  authorUrn: string;
}

/**
 * How a share attempt ended:
 * - `shared`: created (201), with the new post's id from `x-restli-id`;
 * - `duplicate`: the network already has this exact post (422 DUPLICATE_POST), i.e. an earlier
 *   attempt went through even if we never learnt it: counts as shared;
 * - `refused`: any other answer; `retryLater` when a later run may succeed with the same post
 *   (5xx, 429, 401/403 once the token is fixed), `stopRun` when no other post can succeed now
 *   (401, 403, 429).
 */
export type ShareAnswer =
  | { kind: 'shared'; status: number; networkPostId: string | null }
  | { kind: 'duplicate'; status: number; networkPostId: string | null }
  | { kind: 'refused'; status: number; message: string; retryLater: boolean; stopRun: boolean };

const ErrorBodySchema = z.object({
  message: z.optional(z.string()),
  code: z.optional(z.string()),
  errorDetails: z.optional(z.object({ inputErrors: z.optional(z.array(z.object({ code: z.optional(z.string()) }))) })),
});

/**
 * Creates an article post through the versioned Posts API
 * (https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api):
 * `POST /rest/posts` with `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0`.
 * Throws UpstreamError when there is no answer at all (network error, timeout).
 */
export async function sharePost(
  target: ShareTarget,
  post: FeedPost,
  options: { timeoutMs?: number | undefined } = {},
): Promise<ShareAnswer> {
  const answer = await callUpstream({
    label: 'posting API',
    url: `${target.apiUrl}/rest/posts`,
    method: 'POST',
    headers: {
      Authorization: `Bearer ${target.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'LinkedIn-Version': target.version,
      'X-Restli-Protocol-Version': '2.0.0',
      'User-Agent': 'site-api (+sharing job)',
    },
    body: JSON.stringify(postBodyFor(target.authorUrn, post)),
    timeoutMs: options.timeoutMs ?? SHARE_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
  });
  return classifyShareAnswer(answer.status, answer.headers.get('x-restli-id'), answer.text);
}

/** The request body: an article post linking the site's post, public, on the main feed. */
export function postBodyFor(authorUrn: string, post: FeedPost): Record<string, unknown> {
  return {
    author: authorUrn,
    commentary: commentaryFor(post),
    visibility: 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    content: {
      article: {
        source: post.url,
        title: post.title.slice(0, 400),
        ...(post.summary ? { description: post.summary.slice(0, 4000) } : {}),
      },
    },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
  };
}

/**
 * The post's text: title, then the summary, in the API's "little text" format, where
 * `| { } @ [ ] ( ) < > # \ * _ ~` are markup and must be escaped, or the post is silently cut at
 * the first one (https://learn.microsoft.com/linkedin/marketing/community-management/shares/little-text-format).
 */
export function commentaryFor(post: FeedPost): string {
  const text = post.summary ? `${post.title}\n\n${post.summary}` : post.title;
  const clipped = text.length > MAX_COMMENTARY - 200 ? `${text.slice(0, MAX_COMMENTARY - 201)}…` : text;
  return clipped.replace(/[|{}@[\]()<>#\\*_~]/g, (character) => `\\${character}`);
}

/** Reads the API's answer; pure, so that every status is tested without a server. */
export function classifyShareAnswer(status: number, restliId: string | null, text: string): ShareAnswer {
  if (status >= 200 && status < 300) return { kind: 'shared', status, networkPostId: restliId?.trim() || null };
  const body = parseErrorBody(text);
  const codes = [body?.code, ...(body?.errorDetails?.inputErrors ?? []).map((error) => error.code)];
  const duplicate = status === 422 && (codes.includes('DUPLICATE_POST') || /duplicate of/i.test(body?.message ?? ''));
  if (duplicate) {
    const id = /\burn:[a-z]+:[a-zA-Z]+:\d+\b/.exec(body?.message ?? '')?.[0] ?? null;
    return { kind: 'duplicate', status, networkPostId: id };
  }
  // Only a bare error code (e.g. INVALID_ACCESS_TOKEN) is repeated, never upstream prose.
  const code = codes.find((value): value is string => typeof value === 'string' && /^[A-Z][A-Z_]{2,40}$/.test(value));
  const detail = code ? `, ${code}` : '';
  if (status === 401) return refused(status, `posting API rejected the token (401${detail})`, true, true);
  if (status === 403) return refused(status, `posting API refused the author or permission (403${detail})`, true, true);
  if (status === 429) return refused(status, 'posting API is rate limiting (429)', true, true);
  if (status >= 500) return refused(status, `posting API failed (${status})`, true, false);
  return refused(status, `posting API refused the post (${status}${detail})`, false, false);
}

function refused(status: number, message: string, retryLater: boolean, stopRun: boolean): ShareAnswer {
  return { kind: 'refused', status, message, retryLater, stopRun };
}

function parseErrorBody(text: string): z.output<typeof ErrorBodySchema> | null {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
