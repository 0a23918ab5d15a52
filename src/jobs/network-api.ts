import { callUpstream, errorBodyOf } from '../platform/upstream-http.ts';
import * as z from '../platform/zod-mini.ts';
import type { FeedPost } from './site-feed.ts';

/** The posting API's limit for `commentary`. */
export const MAX_COMMENTARY = 3000;

/** `apiUrl`: the API base, e.g. https://api.linkedin.com (posts go to `{base}/rest/posts`). */
export type ShareTarget = Record<'apiUrl' | 'version' | 'token' | 'authorUrn', string>;

/**
 * `shared`: created (201). `duplicate`: 422 DUPLICATE_POST, an earlier attempt went through: counts as shared.
 * `refused`: anything else; `stopRun` when no other post can succeed now either (401, 403, 429).
 */
export type ShareAnswer =
  | { kind: 'shared' | 'duplicate'; status: number; networkPostId: string | null }
  | { kind: 'refused'; status: number; message: string; stopRun: boolean };

const ErrorBodySchema = z.object({
  message: z.optional(z.string()),
  code: z.optional(z.string()),
  errorDetails: z.optional(z.object({ inputErrors: z.optional(z.array(z.object({ code: z.optional(z.string()) }))) })),
});

/**
 * Creates an article post (https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api).
 * No retry within a run (a POST is not idempotent); throws UpstreamError when there is no answer at all.
 */
export async function sharePost(target: ShareTarget, post: FeedPost): Promise<ShareAnswer> {
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
    timeoutMs: 10_000,
    maxBytes: 256 * 1024,
  });
  return classifyShareAnswer(answer.status, answer.headers.get('x-restli-id'), answer.text);
}

/** An article post linking the site's post, public, on the main feed. */
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
 * Title, then summary, in the API's "little text" format, where `| { } @ [ ] ( ) < > # \ * _ ~`
 * must be escaped or the post is silently cut at the first one
 * (https://learn.microsoft.com/linkedin/marketing/community-management/shares/little-text-format).
 */
export function commentaryFor(post: FeedPost): string {
  const text = post.summary ? `${post.title}\n\n${post.summary}` : post.title;
  const clipped = text.length > MAX_COMMENTARY - 200 ? `${text.slice(0, MAX_COMMENTARY - 201)}…` : text;
  return clipped.replace(/[|{}@[\]()<>#\\*_~]/g, (character) => `\\${character}`);
}

/** Reads the API's answer; pure, so that every status is tested without a server. */
export function classifyShareAnswer(status: number, restliId: string | null, text: string): ShareAnswer {
  if (status >= 200 && status < 300) return { kind: 'shared', status, networkPostId: restliId?.trim() || null };
  const body = errorBodyOf(ErrorBodySchema, text);
  const codes = [body?.code, ...(body?.errorDetails?.inputErrors ?? []).map((error) => error.code)];
  if (status === 422 && (codes.includes('DUPLICATE_POST') || /duplicate of/i.test(body?.message ?? ''))) {
    const id = /\burn:[a-z]+:[a-zA-Z]+:\d+\b/.exec(body?.message ?? '')?.[0] ?? null;
    return { kind: 'duplicate', status, networkPostId: id };
  }
  // Only a bare error code (e.g. INVALID_ACCESS_TOKEN) is repeated, never upstream prose.
  const code = codes.find((value) => value !== undefined && /^[A-Z][A-Z_]{2,40}$/.test(value));
  const detail = code ? `, ${code}` : '';
  const refused = (message: string, stopRun: boolean): ShareAnswer => ({ kind: 'refused', status, message, stopRun });
  if (status === 401) return refused(`posting API rejected the token (401${detail})`, true);
  if (status === 403) return refused(`posting API refused the author or permission (403${detail})`, true);
  if (status === 429) return refused('posting API is rate limiting (429)', true);
  if (status >= 500) return refused(`posting API failed (${status})`, false);
  return refused(`posting API refused the post (${status}${detail})`, false);
}
