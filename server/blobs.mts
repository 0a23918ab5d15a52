import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';

export interface LocalBlobs {
  /** Where the Blobs server listens (loopback). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts Netlify's own Blobs server on `<dataDir>/blobs` and points `getStore()` at it through
 * NETLIFY_BLOBS_CONTEXT, the way the Netlify runtime wires a deployed function. The local
 * runtime and `npm run job` both use it, so a job run by hand writes where the site reads.
 */
export async function startBlobsServer(dataDir: string): Promise<LocalBlobs> {
  const directory = path.join(dataDir, 'blobs');
  await mkdir(directory, { recursive: true });
  const token = randomBytes(16).toString('hex');
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({
      siteID: 'local',
      token,
      edgeURL: url,
      uncachedEdgeURL: url,
      deployID: 'local',
      primaryRegion: 'local',
    }),
  ).toString('base64');
  return { url, stop: () => server.stop() };
}
