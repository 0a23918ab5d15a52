import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGatedBlobs } from '../../server/blobs.mts';

/**
 * A real Netlify Blobs server in a temporary folder, behind the same gate the local runtime puts
 * in front of it (atomic conditional writes, ETags of values), wired through NETLIFY_BLOBS_CONTEXT
 * the way the platform wires it, for tests that call library code or functions in-process.
 * `context` is that NETLIFY_BLOBS_CONTEXT value, for server processes that should share the store.
 */
export async function startLocalBlobs(): Promise<{ stop(): Promise<void>; directory: string; context: string }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'site-api-blobs-'));
  const { context, stop } = await startGatedBlobs({ directory, token: 'test-token', siteID: 'test' });
  process.env.NETLIFY_BLOBS_CONTEXT = context;
  return {
    directory,
    context,
    async stop() {
      await stop();
      delete process.env.NETLIFY_BLOBS_CONTEXT;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
