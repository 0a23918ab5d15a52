import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';

/**
 * A real Netlify Blobs server in a temporary folder, wired through NETLIFY_BLOBS_CONTEXT the way
 * the platform wires it, for tests that call library code or functions in-process.
 */
export async function startLocalBlobs(): Promise<{ stop(): Promise<void>; directory: string }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'site-api-blobs-'));
  const token = 'test-token';
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({
      siteID: 'test',
      token,
      edgeURL: url,
      uncachedEdgeURL: url,
      deployID: 'test',
      primaryRegion: 'test',
    }),
  ).toString('base64');
  return {
    directory,
    async stop() {
      await server.stop();
      delete process.env.NETLIFY_BLOBS_CONTEXT;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
