import { hash as digest, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';

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
 * on reads, and cuts a list short when a file vanishes under it. So the gate runs each key's writes
 * and deletes one at a time (other keys and lists beside them), decides `If-None-Match: *` and
 * `If-Match` itself, answers the value's hash as every ETag, and lists a store's folder itself.
 */
export async function startGatedBlobs(options: {
  directory: string;
  token: string;
  siteID: string;
  /** Told of every request a client makes (a Blobs operation), as the BlobsServer's own option is. */
  onRequest?: (event: { type: 'get' | 'getMetadata' | 'list' | 'set' | 'delete'; url: string }) => void;
}): Promise<{ context: string; stop(): Promise<void> }> {
  const { directory, token, siteID, onRequest } = options;
  const blobs = new BlobsServer({ directory, token });
  const backend = `http://127.0.0.1:${(await blobs.start()).port}`;
  /** The ETag of each key's value (null: none), as the gate last wrote or read it in the key's turn. */
  const etags = new Map<string, string | null>();
  /** Writes under way in each folder (`/site/store/dir`): the BlobsServer's temporary files are there. */
  const writing = new Map<string, number>();
  /** Each busy key's last change in line; the entry goes when the key is idle. */
  const lines = new Map<string, Promise<void>>();
  const inTurn = <T,>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (lines.get(key) ?? Promise.resolve()).then(work);
    const done = run.then(noop, noop);
    lines.set(key, done);
    void done.then(() => lines.get(key) === done && lines.delete(key));
    return run;
  };
  const forward = (req: http.IncomingMessage, target: string, method: string, body?: Uint8Array<ArrayBuffer>) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (!NOT_FORWARDED.has(name)) headers.set(name, `${value}`);
    return fetch(new URL(target, backend), { method, headers, body: body ?? null });
  };
  /** A key's ETag (null: no value); called in the key's turn. */
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
    const [site = '', name = '', ...rest] = key.split('/').slice(1);
    const body = new Uint8Array(Buffer.concat(await req.toArray()));
    const type = method === 'PUT' ? 'set' : method === 'DELETE' ? 'delete' : method === 'HEAD' ? 'getMetadata' : 'get';
    onRequest?.({ type: rest.length === 0 && method === 'GET' ? 'list' : type, url: req.url ?? '/' });
    if (rest.join('/') !== '' && (method === 'PUT' || method === 'DELETE')) {
      // A delete carries no condition (the client has none), so it only takes its turn.
      const [status, etag] = await inTurn(key, async (): Promise<[number, string?]> => {
        const { 'if-none-match': ifNoneMatch, 'if-match': ifMatch } = req.headers;
        const current = ifNoneMatch || ifMatch ? await etagOf(req, key) : null;
        if ((ifNoneMatch === '*' && current !== null) || (ifMatch !== undefined && ifMatch !== current)) return [412];
        etags.delete(key);
        const folder = key.slice(0, key.lastIndexOf('/'));
        writing.set(folder, (writing.get(folder) ?? 0) + 1);
        const { status } = await forward(req, key, method, method === 'PUT' ? body : undefined).finally(() => {
          const left = (writing.get(folder) ?? 1) - 1;
          if (left === 0) writing.delete(folder);
          else writing.set(folder, left);
        });
        if (status !== 200 || method === 'DELETE') return [status];
        etags.set(key, hash(body));
        return [status, hash(body)];
      });
      return res.writeHead(status, etag ? { etag } : {}).end();
    }
    if (rest.length === 0 && method === 'GET') {
      if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(403).end();
      // Each listed blob with its value's ETag, taken in the key's turn; a key deleted meanwhile is left out.
      const prefix = url.searchParams.get('prefix') ?? '';
      const folder = path.join(directory, 'entries', site, name); // BlobsServer's layout
      const page = await listFolder(folder, prefix, url.searchParams.get('directories') === 'true');
      // A dot-named file no client wrote, in a folder being written to, is a write's temporary file.
      const temporary = (blobKey: string) =>
        /\/\.[^/]*$/.test(blobKey) && !etags.get(blobKey) && writing.has(blobKey.slice(0, blobKey.lastIndexOf('/')));
      const keys = page.keys.map((blob) => `${key}/${blob}`).filter((blobKey) => !temporary(blobKey));
      const listed = await Promise.all(
        keys.map(async (blobKey) => ({
          key: blobKey.slice(key.length + 1),
          etag: await inTurn(blobKey, () => etagOf(req, blobKey)),
        })),
      );
      const blobs = listed.filter((blob) => blob.etag !== null);
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ blobs, directories: page.directories }));
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

/** The gate decides the conditions itself, and each connection is its own. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'if-match', 'if-none-match']);
const NOT_RETURNED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'etag']);

const noop = () => {};

/**
 * The keys (and with `directories`, the folders) of a store's folder under `prefix`, walked as the
 * BlobsServer walks it but by entry type alone: an entry that vanishes meanwhile (a delete, or a
 * write's dot-named temporary file renamed onto its key) is simply absent, never the end of the list.
 */
async function listFolder(root: string, prefix: string, directories: boolean, folder = '') {
  const page = { keys: [] as string[], directories: [] as string[] };
  const entries = await readdir(path.join(root, folder), { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  for (const entry of entries) {
    const key = folder ? `${folder}/${entry.name}` : entry.name;
    if (!(key.startsWith(prefix) || prefix.startsWith(key))) continue;
    if (!entry.isDirectory()) {
      if (key.startsWith(prefix)) page.keys.push(key);
    } else if (directories && key.startsWith(prefix)) page.directories.push(key);
    else {
      const inner = await listFolder(root, prefix, directories, key);
      page.keys.push(...inner.keys);
      page.directories.push(...inner.directories);
    }
  }
  return page;
}
const hash = (value: Uint8Array) => `"${digest('sha256', value).slice(0, 32)}"`;
