import { createHash } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { callUpstream } from '../platform/upstream-http.ts';
import { runJob, upstreamErrorOf } from './job-runs.ts';
import type { StoredRun } from './jobs-schemas.ts';

/** A build hook answers at once (Netlify: 200, empty body) and builds afterwards. */
const HOOK_TIMEOUT_MS = 10_000;

/** Names a hook URL in stored records without storing it (anyone holding it can start builds). */
export function hookTarget(url: string): string {
  return createHash('sha256').update(`build-hook:${url}`).digest('base64url').slice(0, 16);
}

/**
 * The daily publish job: an empty JSON POST to the build hook (https://docs.netlify.com/configure-builds/build-hooks/)
 * rebuilds the static site, so posts dated today go live. One retry: a second build is harmless, a missed day is not.
 */
export async function runPublishJob(options: { hookTimeoutMs?: number } = {}): Promise<StoredRun> {
  return runJob('daily-publish', async () => {
    const url = getConfig().PUBLISH_HOOK_URL;
    if (!url) {
      return {
        outcome: 'failure',
        message: 'no build hook is configured (PUBLISH_HOOK_URL): nothing was published',
        hook: null,
      };
    }
    const hook = { calledAt: Date.now(), status: null as number | null, target: hookTarget(url) };
    const answer = await callUpstream({
      label: 'build hook',
      url,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'site-api (+daily publish job)' },
      body: '{}',
      timeoutMs: options.hookTimeoutMs ?? HOOK_TIMEOUT_MS,
      retries: 1,
      retryOn: [502, 503, 504],
      retryDelayMs: 500,
      maxBytes: 64 * 1024, // the answer is not used; anything large is not a build hook
    }).catch(upstreamErrorOf);
    if (answer instanceof UpstreamError) return { outcome: 'failure', message: answer.message, hook };
    hook.status = answer.status;
    return answer.status >= 200 && answer.status < 300
      ? { outcome: 'success', message: `build hook accepted the call (${answer.status})`, hook }
      : { outcome: 'failure', message: `build hook answered ${answer.status}`, hook };
  });
}
