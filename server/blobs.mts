import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';
import { startBlobsGate } from './blobs-gate.mts';

/**
 * Netlify's own Blobs server on `<dataDir>/blobs`, behind the gate that makes its conditional
 * writes atomic (blobs-gate.mts), wired through NETLIFY_BLOBS_CONTEXT as the Netlify runtime wires
 * a function, so `getStore()` needs no arguments. When NETLIFY_BLOBS_CONTEXT is already set (by
 * Netlify's tools, or to share another local server's store), that store is used instead.
 */
export async function startBlobsServer(dataDir: string): Promise<{ stop(): Promise<void> }> {
  if (process.env.NETLIFY_BLOBS_CONTEXT) return { stop: async () => {} };
  const directory = path.join(dataDir, 'blobs');
  await mkdir(directory, { recursive: true });
  const { context, stop } = await startGatedBlobs({
    directory,
    token: randomBytes(16).toString('hex'),
    siteID: 'local',
  });
  process.env.NETLIFY_BLOBS_CONTEXT = context;
  return {
    async stop() {
      await stop();
      delete process.env.NETLIFY_BLOBS_CONTEXT;
    },
  };
}

/** A gated BlobsServer on `directory`; `context` is the NETLIFY_BLOBS_CONTEXT value that reaches it. */
export async function startGatedBlobs(options: {
  directory: string;
  token: string;
  siteID: string;
  onRequest?: ConstructorParameters<typeof BlobsServer>[0]['onRequest'];
}): Promise<{ context: string; stop(): Promise<void> }> {
  const { directory, token, siteID, onRequest } = options;
  const server = new BlobsServer({ directory, token, ...(onRequest ? { onRequest } : {}) });
  const gate = await startBlobsGate(`http://127.0.0.1:${(await server.start()).port}`);
  const wiring = {
    siteID,
    token,
    edgeURL: gate.url,
    uncachedEdgeURL: gate.url,
    deployID: siteID,
    primaryRegion: siteID,
  };
  return {
    context: Buffer.from(JSON.stringify(wiring)).toString('base64'),
    async stop() {
      await gate.stop();
      await server.stop();
    },
  };
}
