import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';
import { startBlobsGate } from './blobs-gate.mts';

export interface LocalBlobs {
  /** Where the store is served (loopback), or null when another process serves it. */
  url: string | null;
  stop(): Promise<void>;
}

/**
 * Starts Netlify's own Blobs server on `<dataDir>/blobs` behind the gate that gives it Netlify's
 * atomic conditional writes (server/blobs-gate.mts), and points `getStore()` at the gate through
 * NETLIFY_BLOBS_CONTEXT, the way the Netlify runtime wires a deployed function. The local runtime
 * and `npm run job` both use it, so a job run by hand writes where the site reads.
 *
 * When NETLIFY_BLOBS_CONTEXT is already set, that store is used instead: it is how Netlify's own
 * tools hand a process a store, and how a second local server shares the first one's (through
 * its gate, so conditional writes stay atomic across both).
 */
export async function startBlobsServer(dataDir: string): Promise<LocalBlobs> {
  if (process.env.NETLIFY_BLOBS_CONTEXT) return { url: null, stop: async () => {} };
  const directory = path.join(dataDir, 'blobs');
  await mkdir(directory, { recursive: true });
  const token = randomBytes(16).toString('hex');
  const { context, stop } = await startGatedBlobs({ directory, token, siteID: 'local' });
  process.env.NETLIFY_BLOBS_CONTEXT = context;
  return {
    url: JSON.parse(Buffer.from(context, 'base64').toString()).edgeURL,
    async stop() {
      await stop();
      delete process.env.NETLIFY_BLOBS_CONTEXT;
    },
  };
}

/**
 * A BlobsServer on `directory` behind its gate; `context` is the NETLIFY_BLOBS_CONTEXT value that
 * reaches it. `onRequest` sees every operation the server carries out (tests count them).
 */
export async function startGatedBlobs(options: {
  directory: string;
  token: string;
  siteID: string;
  onRequest?: ConstructorParameters<typeof BlobsServer>[0]['onRequest'];
}): Promise<{ context: string; stop(): Promise<void> }> {
  const { directory, token, onRequest } = options;
  const server = new BlobsServer({ directory, token, ...(onRequest ? { onRequest } : {}) });
  const { port } = await server.start();
  const gate = await startBlobsGate(`http://127.0.0.1:${port}`);
  const context = Buffer.from(
    JSON.stringify({
      siteID: options.siteID,
      token: options.token,
      edgeURL: gate.url,
      uncachedEdgeURL: gate.url,
      deployID: options.siteID,
      primaryRegion: options.siteID,
    }),
  ).toString('base64');
  return {
    context,
    async stop() {
      await gate.stop();
      await server.stop();
    },
  };
}
