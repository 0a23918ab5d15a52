import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Netlify Blobs applies a conditional write (`onlyIfNew`, `onlyIfMatch`) atomically, and its ETag
 * names a value, on reads too. The local BlobsServer checks a condition and writes with awaits in
 * between (20 concurrent `onlyIfNew` all win), derives ETags from the file's mtime (two writes in
 * one millisecond share one) and sends none on reads; its list stops short, answering 200, when a
 * file disappears under it. This gate in front of it runs each store's writes, deletes and lists
 * one at a time, decides `If-None-Match: *` and `If-Match` itself, and answers with the value's
 * hash as every ETag, so the limits that rely on these hold locally too. Every local client of the
 * store goes through it (the runtime, `npm run job`, tests).
 */
export async function startBlobsGate(backend: string): Promise<{ url: string; stop(): Promise<void> }> {
  const queues = new Map<string, Promise<unknown>>();
  /** ETags of values by `site/store/key`, kept by writes; read and changed only in the store's turn. */
  const etags = new Map<string, string | null>();
  const inTurn = <T,>(store: string, work: () => Promise<T>): Promise<T> => {
    const run = (queues.get(store) ?? Promise.resolve()).then(work, work);
    queues.set(
      store,
      run.catch(() => {}),
    );
    return run;
  };
  const forward = (req: http.IncomingMessage, pathAndQuery: string, method: string, body?: Buffer) => {
    const headers = Object.entries(req.headers).filter(([name]) => !SKIPPED.has(name));
    return fetch(new URL(pathAndQuery, backend), {
      method,
      headers: headers.map(([name, value]): [string, string] => [name, `${value}`]),
      body: method === 'PUT' ? new Uint8Array(body ?? []) : null,
    });
  };
  /** The ETag of a key's value, or null when it has none; a status other than 200 or 404 throws. */
  const etagOf = async (req: http.IncomingMessage, id: string, keyPath: string) => {
    if (!etags.has(id)) {
      const res = await forward(req, keyPath, 'GET');
      if (res.status !== 200 && res.status !== 404) throw res.status;
      etags.set(id, res.status === 404 ? null : hash(await res.bytes()));
    }
    return etags.get(id) ?? null;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', backend);
    // `/[region:x/]site/store/key…`: the key is all that follows the store, as the server stores it.
    const parts = url.pathname.split('/').slice(1);
    if (parts[0]?.startsWith('region:')) parts.shift();
    const [site, name, ...key] = parts;
    const store = `${site}/${name}`;
    const id = `${store}/${key.join('/')}`;
    const body = Buffer.concat((await req.toArray()) as Buffer[]);
    if (key.join('/') !== '' && (req.method === 'PUT' || req.method === 'DELETE')) {
      const { status, etag } = await inTurn(store, async () => {
        if (req.method === 'DELETE') {
          etags.delete(id);
          return { status: (await forward(req, url.pathname, 'DELETE')).status };
        }
        const { 'if-none-match': ifNoneMatch, 'if-match': ifMatch } = req.headers;
        const current = ifNoneMatch || ifMatch ? await etagOf(req, id, url.pathname).catch((s: number) => s) : null;
        if (typeof current === 'number') return { status: current };
        if ((ifNoneMatch === '*' && current !== null) || (ifMatch !== undefined && ifMatch !== current)) {
          return { status: 412 };
        }
        etags.delete(id);
        const stored = await forward(req, url.pathname, 'PUT', body);
        if (stored.status === 200) etags.set(id, hash(body));
        return { status: stored.status, etag: stored.status === 200 ? hash(body) : undefined };
      });
      res.writeHead(status, etag ? { etag } : {}).end();
      return;
    }
    if (key.length === 0 && req.method === 'GET') {
      // A list answers each blob with its value's ETag; a key deleted meanwhile is left out.
      const { status, page } = await inTurn(store, async () => {
        const listed = await forward(req, url.pathname + url.search, 'GET');
        const page = (await listed.json().catch(() => ({}))) as { blobs?: { key: string; etag: string | null }[] };
        for (const blob of page.blobs ?? []) {
          blob.etag = await etagOf(req, `${store}/${blob.key}`, `/${site}/${name}/${blob.key}`).catch(() => null);
        }
        if (page.blobs) page.blobs = page.blobs.filter((blob) => blob.etag !== null);
        return { status: listed.status, page };
      });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(page));
      return;
    }
    // A read (HEAD is read as a GET) carries its value's ETag, as `getWithMetadata().etag` does on Netlify.
    const answer = await forward(req, url.pathname + url.search, 'GET');
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'etag'].includes(name)) {
        headers[name] = value;
      }
    });
    const payload = Buffer.from(await answer.arrayBuffer());
    if (answer.status === 200) headers.etag = hash(payload);
    res.writeHead(answer.status, headers).end(req.method === 'HEAD' ? undefined : payload);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('Blobs gate failed:', error);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}

/** Request headers not passed on: the gate decides the conditions, and the connection is its own. */
const SKIPPED = new Set(['host', 'connection', 'content-length', 'if-match', 'if-none-match']);

const hash = (value: Uint8Array) => `"${createHash('sha256').update(value).digest('hex').slice(0, 32)}"`;
