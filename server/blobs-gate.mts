import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What Netlify Blobs guarantees and the local BlobsServer does not (notes/platform.md §3): a
 * conditional write (`onlyIfNew`, `onlyIfMatch`) is checked and applied atomically, and an ETag
 * names a value ("an entry for the key with the given content", @netlify/blobs `getConditions`),
 * returned on reads too. The local server checks a condition and then writes with awaits between
 * (20 concurrent `onlyIfNew` all win), and its ETags hash the file's mtime to the millisecond (two
 * writes in one clock tick share one), with none on reads.
 *
 * This gate sits in front of the local server, in the process that owns it, and every client of
 * the store goes through it (this process, `npm run job`, another local server given its
 * NETLIFY_BLOBS_CONTEXT). Writes and deletes of one key run one at a time; the gate evaluates
 * `If-None-Match: *` and `If-Match` itself against the stored value, and every ETag it hands out
 * (write, read, list) is the hash of the value, so local behaviour is never weaker than Netlify's.
 *
 * The local server's list also stops short, with a 200 and whatever it had found, when a file it
 * is walking disappears (a delete, or the rename that ends a write): a list made while another
 * request deletes a sibling key can come back empty. So a store's lists and its writes and deletes
 * do not overlap here; lists run together, writes and deletes run together.
 */

export interface BlobsGate {
  url: string;
  stop(): Promise<void>;
}

const etagOf = (body: Uint8Array) => `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;

/** Starts a gate on loopback in front of the BlobsServer at `backend` (`http://127.0.0.1:PORT`). */
export async function startBlobsGate(backend: string): Promise<BlobsGate> {
  /** Tail of the queue of writes per key (`site/store/key`). */
  const queues = new Map<string, Promise<unknown>>();
  /** ETag of the value of a key, as last written or read through the gate while no write ran. */
  const known = new Map<string, string>();
  /** Writes per key so far: a value read outside the queue is only remembered if none ran meanwhile. */
  const writes = new Map<string, number>();

  const serially = <T,>(id: string, work: () => Promise<T>): Promise<T> => {
    const run = (queues.get(id) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => {});
    queues.set(id, tail);
    void tail.then(() => {
      if (queues.get(id) === tail) queues.delete(id);
    });
    return run;
  };

  const turns = storeTurns();

  const forward = (req: http.IncomingMessage, target: URL, method: string, body?: Buffer) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ['host', 'connection', 'content-length', 'if-match', 'if-none-match'].includes(name))
        continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return fetch(new URL(target.pathname + target.search, backend), {
      method,
      headers,
      ...(body && method === 'PUT' ? { body: new Uint8Array(body) } : {}),
    });
  };

  /**
   * The ETag of a key's current value, or null when there is none. A value read outside the key's
   * queue is only remembered when no write ran or started meanwhile.
   */
  const currentEtag = async (req: http.IncomingMessage, url: URL, id: string, queued: boolean) => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    const quiet = () => queued || !queues.has(id);
    const before = quiet() ? (writes.get(id) ?? 0) : -1;
    const res = await forward(req, new URL(url.pathname, url), 'GET');
    if (res.status === 404) return null;
    if (!res.ok) throw new BackendError(res.status);
    const etag = etagOf(new Uint8Array(await res.arrayBuffer()));
    if (quiet() && (writes.get(id) ?? 0) === before) known.set(id, etag);
    return etag;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://gate');
    // `/[region:x/]site/store/key…`; the key is everything after the store, exactly as the server stores it.
    const parts = url.pathname.split('/').slice(1);
    if (parts[0]?.startsWith('region:')) parts.shift();
    const [site, store, ...key] = parts;
    const id = site && store && key.length > 0 && key.join('/') !== '' ? `${site}/${store}/${key.join('/')}` : null;
    const body = await readAll(req);

    const storeId = `${site}/${store}`;
    if (id && req.method === 'PUT') {
      const answer = await serially(id, async () => {
        const ifNoneMatch = req.headers['if-none-match'];
        const ifMatch = req.headers['if-match'];
        if (ifNoneMatch !== undefined || ifMatch !== undefined) {
          let current: string | null;
          try {
            current = await currentEtag(req, url, id, true);
          } catch (error) {
            if (error instanceof BackendError) return { status: error.status };
            throw error;
          }
          if (ifNoneMatch === '*' && current !== null) return { status: 412 };
          if (ifMatch !== undefined && ifMatch !== current) return { status: 412 };
        }
        writes.set(id, (writes.get(id) ?? 0) + 1);
        known.delete(id);
        const stored = await turns.run(storeId, 'change', () => forward(req, url, 'PUT', body));
        if (stored.status !== 200) return { status: stored.status };
        const etag = etagOf(body);
        known.set(id, etag);
        return { status: 200, etag };
      });
      res.writeHead(answer.status, answer.etag ? { etag: answer.etag } : {}).end();
      return;
    }
    if (id && req.method === 'DELETE') {
      const status = await serially(id, async () => {
        writes.set(id, (writes.get(id) ?? 0) + 1);
        known.delete(id);
        return (await turns.run(storeId, 'change', () => forward(req, url, 'DELETE'))).status;
      });
      res.writeHead(status).end();
      return;
    }

    const listing = !id && site && store && req.method === 'GET';
    const answer = listing
      ? await turns.run(storeId, 'list', () => forward(req, url, 'GET'))
      : await forward(req, url, req.method ?? 'GET', body);
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'etag'].includes(name))
        headers[name] = value;
    });
    let payload: Buffer = Buffer.from(await answer.arrayBuffer());
    if (id && (req.method === 'GET' || req.method === 'HEAD') && answer.status === 200) {
      // Reads carry the value's ETag, as on Netlify (`getWithMetadata().etag`).
      headers.etag =
        req.method === 'GET' ? etagOf(payload) : ((await currentEtag(req, url, id, false)) ?? etagOf(new Uint8Array()));
    } else if (listing && answer.status === 200) {
      payload = await withValueEtags(payload, async (listed) => {
        const keyUrl = new URL(`/${site}/${store}/${listed}`, url);
        return currentEtag(req, keyUrl, `${site}/${store}/${listed}`, false).catch(() => null);
      });
    }
    res.writeHead(answer.status, headers).end(req.method === 'HEAD' ? undefined : payload);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('Blobs gate failed:', error);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Turns per store between two kinds of work: any number of one kind run at once, never both kinds.
 * Whoever waits looks again each time the running kind's count drops to zero.
 */
function storeTurns() {
  const stores = new Map<string, { running: number; kind: string; waiting: (() => void)[] }>();
  return {
    async run<T>(storeId: string, kind: 'list' | 'change', work: () => Promise<T>): Promise<T> {
      for (;;) {
        const turn = stores.get(storeId);
        if (!turn) {
          stores.set(storeId, { running: 1, kind, waiting: [] });
          break;
        }
        if (turn.kind === kind && turn.waiting.length === 0) {
          turn.running += 1;
          break;
        }
        await new Promise<void>((resolve) => turn.waiting.push(resolve));
      }
      try {
        return await work();
      } finally {
        const turn = stores.get(storeId);
        if (turn && --turn.running === 0) {
          stores.delete(storeId);
          for (const wake of turn.waiting) wake();
        }
      }
    },
  };
}

/**
 * A list answer with each blob's ETag replaced by its value's; a key gone by the time it is read
 * is left out. (The server also lists the temporary file of a write in progress, `pin/.k7cc9voyif`,
 * which cannot be told from a key of that name; store.ts skips such keys.)
 */
async function withValueEtags(payload: Buffer, etagOfKey: (key: string) => Promise<string | null>): Promise<Buffer> {
  const page = JSON.parse(payload.toString('utf8')) as { blobs?: { key: string; etag: string }[] };
  if (!page.blobs) return payload;
  const blobs = await Promise.all(page.blobs.map(async (blob) => ({ ...blob, etag: await etagOfKey(blob.key) })));
  page.blobs = blobs.filter((blob): blob is { key: string; etag: string } => blob.etag !== null);
  return Buffer.from(JSON.stringify(page));
}

class BackendError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`Blobs server answered ${status}`);
    this.status = status;
  }
}

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
