import { getConfig } from '../platform/config.ts';
import { callBuildHook, hookTarget } from './build-hook.ts';
import { runJob } from './job-runs.ts';
import type { StoredRun } from './jobs-schemas.ts';

/**
 * The daily publish job: calls the site's build hook so that a fresh build publishes the posts
 * dated today (a static site only shows what its last build saw). Two runs at once call the
 * hook twice, which costs one extra build and nothing else.
 */
export async function runPublishJob(options: { hookTimeoutMs?: number | undefined } = {}): Promise<StoredRun> {
  return runJob('daily-publish', async () => {
    const url = getConfig().PUBLISH_HOOK_URL;
    if (!url) {
      return {
        outcome: 'failure',
        message: 'no build hook is configured (PUBLISH_HOOK_URL): nothing was published',
        hook: null,
      };
    }
    const calledAt = Date.now();
    const answer = await callBuildHook(url, { timeoutMs: options.hookTimeoutMs });
    return {
      outcome: answer.ok ? 'success' : 'failure',
      message: answer.message,
      hook: { calledAt, status: answer.status, target: hookTarget(url) },
    };
  });
}
