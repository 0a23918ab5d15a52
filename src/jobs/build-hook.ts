import { createHash } from 'node:crypto';
import { UpstreamError } from '../platform/errors.ts';
import { callUpstream } from '../platform/upstream-http.ts';

/** A build hook answers at once (Netlify: 200 with an empty body) and builds afterwards. */
export const HOOK_TIMEOUT_MS = 10_000;
/** The answer is not used; anything large is not a build hook. */
const MAX_HOOK_BODY_BYTES = 64 * 1024;

export interface HookAnswer {
  /** HTTP status, or null when the hook did not answer (network error, timeout). */
  status: number | null;
  ok: boolean;
  message: string;
}

/**
 * Calls a static host's build hook with an empty JSON POST, as Netlify documents
 * (`curl -X POST -d '{}' https://api.netlify.com/build_hooks/<id>`,
 * https://docs.netlify.com/configure-builds/build-hooks/). One retry on 502/503/504 or no
 * answer: a second build is harmless, a missed day is not.
 */
export async function callBuildHook(
  url: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<HookAnswer> {
  try {
    const answer = await callUpstream({
      label: 'build hook',
      url,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'site-api (+daily publish job)' },
      body: '{}',
      timeoutMs: options.timeoutMs ?? HOOK_TIMEOUT_MS,
      retries: 1,
      retryOn: [502, 503, 504],
      retryDelayMs: 500,
      maxBytes: MAX_HOOK_BODY_BYTES,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      status: answer.status,
      ok,
      message: ok ? `build hook accepted the call (${answer.status})` : `build hook answered ${answer.status}`,
    };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return { status: null, ok: false, message: error.message };
  }
}

/** Identifies a hook URL in stored records without storing it (anyone holding it can start builds). */
export function hookTarget(url: string): string {
  return createHash('sha256').update(`build-hook:${url}`).digest('base64url').slice(0, 16);
}
