import { hash as digest, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BlobsServer, Operation } from '@netlify/blobs/server';
import { BlobsTurns } from './blobs-turns.mts';

/**
 * Netlify's Blobs server on `<dataDir>/blobs` behind the gate below, wired through NETLIFY_BLOBS_CONTEXT
 * as Netlify wires a function; a NETLIFY_BLOBS_CONTEXT already set (another local store) wins.
 */
export async function startBlobsServer(dataDir: string): Promise<{ stop(): Promise<void> }> {
  if (process.env.NETLIFY_BLOBS_CONTEXT) return { stop: async () => {} };
  const directory = path.join(dataDir, 'blobs'); // the BlobsServer creates it
  const blobs = await startGatedBlobs({ directory, token: randomBytes(16).toString('hex'), siteID: 'local' });
  process.env.NETLIFY_BLOBS_CONTEXT = blobs.context;
  return {
    async stop() {
      await blobs.stop();
      delete process.env.NETLIFY_BLOBS_CONTEXT;
    },
  };
}

/**
 * A BlobsServer on `directory` behind a gate; `context` is the NETLIFY_BLOBS_CONTEXT that reaches it.
 * Netlify applies a conditional write atomically and its ETag names a value; the BlobsServer checks
 * and writes with awaits between (20 concurrent `onlyIfNew` all win), dates ETags by mtime, sends none
 * on reads, and cuts a list short when a file vanishes under it. So the gate runs one key's writes and
 * deletes one at a time and never beside a list of them (blobs-turns.mts), decides `If-None-Match: *`
 * and `If-Match` itself, answers the value's hash as every ETag, and lists keys itself (`listKeys`).
 */
export async function startGatedBlobs(options: {
  directory: string;
  token: string;
  siteID: string;
  onRequest?: ConstructorParameters<typeof BlobsServer>[0]['onRequest'];
}): Promise<{ context: string; stop(): Promise<void> }> {
  const { directory, token, siteID, onRequest } = options;
  const blobs = new BlobsServer({ directory, token, ...(onRequest ? { onRequest } : {}) });
  const backend = `http://127.0.0.1:${(await blobs.start()).port}`;
  /** The ETag of each key's value (null: none), as the gate last wrote or read it in the key's turn. */
  const etags = new Map<string, string | null>();
  const turns = new BlobsTurns();
  const forward = (req: http.IncomingMessage, target: string, method: string, body?: Uint8Array<ArrayBuffer>) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (!NOT_FORWARDED.has(name)) headers.set(name, `${value}`);
    return fetchRetryingReset(new URL(target, backend), { method, headers, body: body ?? null });
  };
  /** A key's ETag (null: no value), read in its turn or in a list's. */
  const etagOf = async (req: http.IncomingMessage, key: string) => {
    if (!etags.has(key)) {
      const read = await forward(req, key, 'GET');
      if (read.status !== 200 && read.status !== 404) throw new Error(`reading ${key} answered ${read.status}`);
      etags.set(key, read.status === 404 ? null : hash(await read.bytes()));
    }
    return etags.get(key) ?? null;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const { method = 'GET' } = req;
    const url = new URL(req.url ?? '/', backend);
    const key = url.pathname; // `/site/store/key…`: site stores only (no deploy store, no region)
    const rest = key.split('/').slice(3);
    const body = new Uint8Array(Buffer.concat(await req.toArray()));
    if (rest.join('/') !== '' && (method === 'PUT' || method === 'DELETE')) {
      // A delete carries no condition (the client has none), so it only takes its turn.
      const [status, etag] = await turns.change(key, async (): Promise<[number, string?]> => {
        const { 'if-none-match': ifNoneMatch, 'if-match': ifMatch } = req.headers;
        const current = ifNoneMatch || ifMatch ? await etagOf(req, key) : null;
        if ((ifNoneMatch === '*' && current !== null) || (ifMatch !== undefined && ifMatch !== current)) return [412];
        etags.delete(key);
        const { status } = await forward(req, key, method, method === 'PUT' ? body : undefined);
        if (status !== 200 || method === 'DELETE') return [status];
        etags.set(key, hash(body));
        return [status, hash(body)];
      });
      return res.writeHead(status, etag ? { etag } : {}).end();
    }
    if (rest.length === 0 && method === 'GET') {
      // Each listed blob with its value's ETag; a key deleted meanwhile is left out.
      const prefix = url.searchParams.get('prefix') ?? '';
      onRequest?.({ type: Operation.LIST, url: `${url.pathname}${url.search}` });
      const listed = await turns.list(`${key}/${prefix}`, async () => {
        const blobs = [];
        for (const name of await listKeys(path.join(directory, 'entries', key), prefix)) {
          const etag = await etagOf(req, `${key}/${name}`).catch(() => null);
          if (etag !== null) blobs.push({ key: name, etag });
        }
        return { blobs, directories: [] };
      });
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
    }
    // A read (HEAD too) carries its value's ETag, as `getWithMetadata().etag` does on Netlify.
    const read = await forward(req, url.pathname + url.search, 'GET');
    const payload = await read.bytes();
    const headers = Object.fromEntries([...read.headers].filter(([header]) => !NOT_RETURNED.has(header)));
    if (read.status === 200) headers.etag = hash(payload);
    return res.writeHead(read.status, headers).end(method === 'HEAD' ? undefined : payload);
  };

  const gate = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('Blobs gate failed:', error);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  const edgeURL = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
  const wiring = { siteID, token, edgeURL, uncachedEdgeURL: edgeURL };
  return {
    context: Buffer.from(JSON.stringify(wiring)).toString('base64'),
    async stop() {
      await new Promise((resolve) => gate.close(resolve).closeAllConnections());
      await blobs.stop();
    },
  };
}

/**
 * The keys of a store's folder that begin with `prefix` (Linux and macOS keep a key as its path).
 * The BlobsServer walks from the store's root, awaiting a stat of every entry on the way, each in
 * turn: hundreds for one client's rate limit on a busy day. This reads the prefix's own folder only.
 * No write's temporary file is there: a list waits for the changes in that folder (blobs-turns.mts).
 */
async function listKeys(storeFolder: string, prefix: string): Promise<string[]> {
  const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  const entries = await readdir(path.join(storeFolder, folder), { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)),
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(storeFolder, path.join(entry.parentPath, entry.name)))
    .filter((name) => name.startsWith(prefix));
}

/** The gate decides the conditions itself, and each connection is its own. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'if-match', 'if-none-match']);
const NOT_RETURNED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'etag']);

/**
 * A request to the BlobsServer, sent again (twice at most) when its connection was reset before an
 * answer: a kept-alive connection the server closed as the request went out. Every request the gate
 * sends may be repeated (reads, lists, and writes and deletes it has already decided). Answered 502
 * instead, the Blobs client would wait 5 s before its retry, past the store's deadline.
 */
export async function fetchRetryingReset(url: URL, init: RequestInit, tries = 3): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (tries <= 1 || !RESET.has(code ?? '')) throw error;
    return fetchRetryingReset(url, init, tries - 1);
  }
}
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const hash = (value: Uint8Array) => `"${digest('sha256', value).slice(0, 32)}"`;
