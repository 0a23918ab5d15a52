import type http from 'node:http';
import { type FakeServer, JOB_FIXTURES_DIR, json, readFixture, startFake } from './fake-http-server.mts';

/**
 * Local stand-ins for the services the jobs and the photo feed call, each a real HTTP server on
 * 127.0.0.1 that behaves like the real one (status codes, headers, bodies from fixtures/), counts
 * requests, and can be told to misbehave:
 * - a build hook (Netlify: `POST /build_hooks/<id>` answered 200 with an empty body);
 * - the site's post feed (`/feed.json` JSON Feed 1.1);
 * - the posting API (LinkedIn Posts API: `POST /rest/posts`, 201 + `x-restli-id`, 422 DUPLICATE_POST);
 * - the photo platform's Graph API (`GET /me/media`, `GET /refresh_access_token`, error code 190),
 *   in scripts/fake-photo-graph.mts and re-exported here.
 */

export {
  type FaultMode,
  JOB_FIXTURES_DIR,
  PHOTO_FIXTURES_DIR,
  readFixture,
} from './fake-http-server.mts';
export { type FakePhotoGraph, startFakePhotoGraph } from './fake-photo-graph.mts';

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
  /** The posts served, newest first. */
  posts: FeedEntry[];
}

/** The site's own feed, built from `posts`. */
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
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
  });
  return Object.defineProperties(fake, {
    jsonFeedUrl: { value: `${fake.url}/feed.json` },
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
