import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Local stand-ins for the services the jobs and the photo feed call, each a real HTTP server on
 * 127.0.0.1 that behaves like the real one (status codes, headers, bodies from fixtures/), counts
 * requests, and can be told to misbehave:
 * - a build hook (Netlify: `POST /build_hooks/<id>` answered 200 with an empty body);
 * - the site's post feed (`/feed.json` JSON Feed 1.1, `/rss.xml` RSS 2.0);
 * - the posting API (LinkedIn Posts API: `POST /rest/posts`, 201 + `x-restli-id`, 422 DUPLICATE_POST);
 * - the photo platform's Graph API (`GET /me/media`, `GET /refresh_access_token`, error code 190).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
export const JOB_FIXTURES_DIR = path.resolve(here, '../fixtures/jobs');
export const PHOTO_FIXTURES_DIR = path.resolve(here, '../fixtures/photo-feed');

export const readFixture = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

/** Ways a fake can misbehave; `hang` never answers, `reset` drops the connection. */
export type FaultMode = 'ok' | 'error-500' | 'error-503' | 'hang' | 'reset' | 'garbage';

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  mode: FaultMode;
  /** Answers with this mode for the next N requests, then goes back to `mode`. */
  failNext(count: number, mode: FaultMode): void;
  close(): Promise<void>;
}

type Handler = (request: RecordedRequest, res: http.ServerResponse) => void;

async function startFake(handle: Handler, port = 0): Promise<FakeServer> {
  const sockets = new Set<Socket>();
  let override: { count: number; mode: FaultMode } | null = null;
  const fake: FakeServer = {
    url: '',
    requests: [],
    mode: 'ok',
    failNext(count, mode) {
      override = { count, mode };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      fake.requests.push(request);
      let mode = fake.mode;
      if (override && override.count > 0) {
        mode = override.mode;
        override.count--;
      }
      switch (mode) {
        case 'hang':
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'error-500':
          res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Internal Server Error</h1>');
          return;
        case 'error-503':
          res.writeHead(503, { 'Content-Type': 'text/html', 'Retry-After': '30' }).end('<h1>Service Unavailable</h1>');
          return;
        case 'garbage':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[{"id":');
          return;
        default:
          handle(request, res);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const json = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', ...headers }).end(body);

// ---------------------------------------------------------------------------------------------

export interface FakeBuildHook extends FakeServer {
  /** The hook URL to configure (PUBLISH_HOOK_URL). */
  hookUrl: string;
  /** Successful hook calls (each starts a build on Netlify). */
  builds(): number;
}

/** Netlify's build hook: POST to the hook URL answers 200 with an empty body; a GET is refused. */
export async function startFakeBuildHook(): Promise<FakeBuildHook> {
  const hookId = '5c23354f454e1350f8543e78';
  let builds = 0;
  const fake = await startFake((request, res) => {
    if (request.path !== `/build_hooks/${hookId}`) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
      return;
    }
    if (request.method !== 'POST') {
      res.writeHead(405, { 'Content-Type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    builds++;
    res.writeHead(200, { 'Content-Length': '0' }).end();
  });
  return Object.assign(fake, { hookUrl: `${fake.url}/build_hooks/${hookId}`, builds: () => builds });
}

// ---------------------------------------------------------------------------------------------

export interface FeedEntry {
  id: string;
  url: string;
  title: string;
  summary?: string;
  /** ISO 8601. */
  date: string;
}

export interface FakePostFeed extends FakeServer {
  jsonFeedUrl: string;
  rssUrl: string;
  /** The posts served, newest first (both formats are built from them). */
  posts: FeedEntry[];
}

/** The site's own feed in both formats, built from `posts`. */
export async function startFakePostFeed(posts: FeedEntry[] = []): Promise<FakePostFeed> {
  const state = { posts };
  const fake = await startFake((request, res) => {
    if (request.path === '/feed.json') {
      const body = {
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Notes from the queue',
        home_page_url: 'https://example.com/',
        items: state.posts.map((post) => ({
          id: post.id,
          url: post.url,
          title: post.title,
          ...(post.summary ? { summary: post.summary } : {}),
          content_html: `<p>${post.title}</p>`,
          date_published: post.date,
        })),
      };
      json(res, 200, JSON.stringify(body), { 'Content-Type': 'application/feed+json' });
      return;
    }
    if (request.path === '/rss.xml') {
      const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const items = state.posts
        .map(
          (post) =>
            `<item><title>${xml(post.title)}</title><link>${xml(post.url)}</link><guid isPermaLink="false">${xml(post.id)}</guid>${post.summary ? `<description><![CDATA[<p>${post.summary}</p>]]></description>` : ''}<pubDate>${new Date(post.date).toUTCString()}</pubDate></item>`,
        )
        .join('');
      res
        .writeHead(200, { 'Content-Type': 'application/rss+xml; charset=utf-8' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Notes from the queue</title><link>https://example.com/</link><description>Posts</description>${items}</channel></rss>`,
        );
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
  });
  return Object.defineProperties(fake, {
    jsonFeedUrl: { value: `${fake.url}/feed.json` },
    rssUrl: { value: `${fake.url}/rss.xml` },
    posts: {
      get: () => state.posts,
      set: (value: FeedEntry[]) => {
        state.posts = value;
      },
    },
  }) as FakePostFeed;
}

// ---------------------------------------------------------------------------------------------

export interface CreatedPost {
  id: string;
  author: string;
  commentary: string;
  source: string;
  title: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeNetworkApi extends FakeServer {
  /** The token the API accepts; anything else is 401 like the real API. */
  validToken: string;
  /** Posts created, in order. */
  posts: CreatedPost[];
  /** The API refuses identical content with 422 DUPLICATE_POST, as the real one does. */
  detectDuplicates: boolean;
  /** Creates the next N posts but drops the connection instead of answering (the client never learns). */
  loseAnswers: number;
}

/**
 * The professional network's Posts API: checks the bearer token, the version headers and the
 * required fields; creates the post (201, `x-restli-id: urn:li:share:<n>`, empty body); refuses
 * the same content twice with the recorded 422 DUPLICATE_POST body.
 */
export async function startFakeNetworkApi(validToken = 'network-token-1'): Promise<FakeNetworkApi> {
  const posts: CreatedPost[] = [];
  let nextId = 7141138937766391808n;
  const state = { validToken, detectDuplicates: true, loseAnswers: 0 };
  const duplicateBody = readFixture(JOB_FIXTURES_DIR, 'network-duplicate-post-422.json');
  const fake = await startFake((request, res) => {
    if (request.path !== '/rest/posts' || request.method !== 'POST') {
      json(res, 404, '{"message":"Resource not found","status":404}');
      return;
    }
    if (request.headers.authorization !== `Bearer ${state.validToken}`) {
      json(res, 401, readFixture(JOB_FIXTURES_DIR, 'network-invalid-token-401.json'));
      return;
    }
    if (!/^\d{6}$/.test(String(request.headers['linkedin-version'] ?? ''))) {
      json(res, 400, '{"status":400,"code":"VERSION_MISSING","message":"A version must be present."}');
      return;
    }
    if (request.headers['x-restli-protocol-version'] !== '2.0.0') {
      json(res, 400, '{"status":400,"message":"Invalid Rest.li protocol version"}');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body);
    } catch {
      json(
        res,
        400,
        '{"status":400,"code":"ILLEGAL_ARGUMENT","message":"Request body could not be converted to data map"}',
      );
      return;
    }
    const required = ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'];
    const missing = required.filter((field) => !(field in body));
    if (missing.length > 0) {
      const message = missing.map(
        (field) => `ERROR :: /${field} :: field is required but not found and has no default value`,
      );
      json(res, 422, JSON.stringify({ message: message.join('\n'), status: 422 }));
      return;
    }
    const article = (body.content as { article?: { source?: string; title?: string } } | undefined)?.article;
    const post: CreatedPost = {
      id: `urn:li:share:${nextId++}`,
      author: String(body.author),
      commentary: String(body.commentary),
      source: String(article?.source ?? ''),
      title: String(article?.title ?? ''),
      headers: request.headers,
    };
    const duplicate = posts.find((p) => p.commentary === post.commentary && p.source === post.source);
    if (state.detectDuplicates && duplicate) {
      json(res, 422, duplicateBody.replace(/urn:li:share:\d+/, duplicate.id));
      return;
    }
    posts.push(post);
    if (state.loseAnswers > 0) {
      state.loseAnswers--;
      res.socket?.destroy();
      return;
    }
    res.writeHead(201, { 'x-restli-id': post.id, 'Content-Length': '0' }).end();
  });
  return Object.defineProperties(fake, {
    posts: { value: posts },
    validToken: {
      get: () => state.validToken,
      set: (value: string) => {
        state.validToken = value;
      },
    },
    loseAnswers: {
      get: () => state.loseAnswers,
      set: (value: number) => {
        state.loseAnswers = value;
      },
    },
    detectDuplicates: {
      get: () => state.detectDuplicates,
      set: (value: boolean) => {
        state.detectDuplicates = value;
      },
    },
  }) as FakeNetworkApi;
}

// ---------------------------------------------------------------------------------------------

export interface FakePhotoGraph extends FakeServer {
  /** Tokens the API accepts, with their expiry (Unix ms). */
  tokens: Map<string, number>;
  /** The `/me/media` payload (the mixed fixture by default). */
  media: string;
  /** Tokens issued by refreshes, in order. */
  issued: string[];
  /** Delay before answering `/me/media`, in ms. */
  delayMs: number;
  mediaRequests(): number;
}

const SIXTY_DAYS_SECONDS = 60 * 24 * 3600;

/**
 * The photo platform's Graph API: `/me/media` checks `fields` and the token (an unknown or
 * expired token gets the recorded 400 error with code 190), `/refresh_access_token` issues a new
 * 60-day token for a valid one that is at least a day old (the fake does not check the age).
 */
export async function startFakePhotoGraph(initialToken = 'IGQ-initial-token'): Promise<FakePhotoGraph> {
  const tokens = new Map<string, number>([[initialToken, Date.now() + SIXTY_DAYS_SECONDS * 1000]]);
  const issued: string[] = [];
  const state = { media: readFixture(PHOTO_FIXTURES_DIR, 'graph-me-media-mixed.json'), delayMs: 0 };
  const expiredBody = readFixture(PHOTO_FIXTURES_DIR, 'graph-error-expired-token.json');
  const tokenValid = (token: string | null) => token !== null && (tokens.get(token) ?? 0) > Date.now();
  const fake = await startFake((request, res) => {
    const token = request.query.get('access_token');
    if (request.path === '/me/media' && request.method === 'GET') {
      if (!tokenValid(token)) {
        json(res, 400, expiredBody, { 'WWW-Authenticate': 'OAuth "Facebook Platform" "invalid_token"' });
        return;
      }
      const fields = (request.query.get('fields') ?? '').split(',');
      if (!['id', 'media_type', 'media_url', 'permalink', 'timestamp'].every((field) => fields.includes(field))) {
        json(res, 400, '{"error":{"message":"(#100) Missing fields","type":"OAuthException","code":100}}');
        return;
      }
      setTimeout(() => json(res, 200, state.media), state.delayMs);
      return;
    }
    if (request.path === '/refresh_access_token' && request.method === 'GET') {
      if (request.query.get('grant_type') !== 'ig_refresh_token') {
        json(res, 400, '{"error":{"message":"Unsupported grant_type","type":"OAuthException","code":100}}');
        return;
      }
      if (!tokenValid(token)) {
        json(res, 400, expiredBody);
        return;
      }
      const fresh = `IGQ-refreshed-${issued.length + 1}`;
      issued.push(fresh);
      tokens.set(fresh, Date.now() + SIXTY_DAYS_SECONDS * 1000);
      json(res, 200, JSON.stringify({ access_token: fresh, token_type: 'bearer', expires_in: SIXTY_DAYS_SECONDS }));
      return;
    }
    json(res, 404, '{"error":{"message":"Unknown path components","type":"OAuthException","code":2500}}');
  });
  return Object.defineProperties(fake, {
    tokens: { value: tokens },
    issued: { value: issued },
    media: {
      get: () => state.media,
      set: (value: string) => {
        state.media = value;
      },
    },
    delayMs: {
      get: () => state.delayMs,
      set: (value: number) => {
        state.delayMs = value;
      },
    },
    mediaRequests: { value: () => fake.requests.filter((r) => r.path === '/me/media').length },
  }) as FakePhotoGraph;
}
