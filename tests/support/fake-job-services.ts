import { readFixture, startFake, TEXT } from '../../scripts/fake-http-server.mts';

// Local stand-ins for the services the jobs and the photo feed call (scripts/fake-http-server.mts), answering
// like the real ones: status codes, headers, bodies recorded in fixtures/.

/** Netlify's build hook: a POST answers 200 with an empty body; a GET is refused. */
export async function startFakeBuildHook() {
  const hookPath = '/build_hooks/5c23354f454e1350f8543e78';
  const fake = await startFake(
    () => ({ builds: 0 }),
    (request, hook) => {
      if (request.path !== hookPath) return [404, 'Not Found', TEXT];
      if (request.method !== 'POST') return [405, 'Method Not Allowed', TEXT];
      hook.builds++;
      return [200];
    },
  );
  return Object.assign(fake, { hookUrl: `${fake.url}${hookPath}` });
}
export type FakeBuildHook = Awaited<ReturnType<typeof startFakeBuildHook>>;

/** A post of the feed; `date` is ISO 8601. */
export type FeedEntry = { id: string; url: string; title: string; summary?: string; date: string };

/** The site's own post feed (`/feed.json`, JSON Feed 1.1), built from `posts`, newest first. */
export async function startFakePostFeed() {
  const fake = await startFake(
    () => ({ posts: [] as FeedEntry[] }),
    (request, { posts }) => {
      if (request.path !== '/feed.json') return [404, 'Not Found', TEXT];
      const items = posts.map(({ date, ...post }) => ({
        ...post,
        content_html: `<p>${post.title}</p>`,
        date_published: date,
      }));
      const feed = { version: 'https://jsonfeed.org/version/1.1', title: 'Notes from the queue', items };
      return [200, JSON.stringify(feed), { 'Content-Type': 'application/feed+json' }];
    },
  );
  return Object.assign(fake, { jsonFeedUrl: `${fake.url}/feed.json` });
}
export type FakePostFeed = Awaited<ReturnType<typeof startFakePostFeed>>;

type CreatedPost = { id: string; author: string; commentary: string; source: string; title: string; headers: object };
type PostBody = { author: string; commentary: string; content?: { article?: { source?: string; title?: string } } };

const REQUIRED = ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'];

/**
 * The professional network's Posts API: checks the token, the version headers and the required
 * fields; creates the post (201, `x-restli-id`); refuses the same content twice (the recorded 422).
 */
export function startFakeNetworkApi(token: string) {
  return startFake(
    () => ({
      validToken: token,
      posts: [] as CreatedPost[],
      /** Creates the next N posts but drops the connection instead of answering. */
      loseAnswers: 0,
    }),
    (request, api) => {
      const { headers } = request;
      if (request.path !== '/rest/posts' || request.method !== 'POST')
        return [404, '{"message":"Resource not found","status":404}'];
      if (headers.authorization !== `Bearer ${api.validToken}`)
        return [401, readFixture('jobs/network-invalid-token-401.json')];
      if (!/^\d{6}$/.test(String(headers['linkedin-version'] ?? '')))
        return [400, '{"status":400,"code":"VERSION_MISSING","message":"A version must be present."}'];
      if (headers['x-restli-protocol-version'] !== '2.0.0')
        return [400, '{"status":400,"message":"Invalid Rest.li protocol version"}'];
      const body = JSON.parse(request.body) as PostBody;
      const missing = REQUIRED.filter((field) => !(field in body));
      if (missing.length > 0) {
        const message = missing.map(
          (field) => `ERROR :: /${field} :: field is required but not found and has no default value`,
        );
        return [422, JSON.stringify({ message: message.join('\n'), status: 422 })];
      }
      const { source = '', title = '' } = body.content?.article ?? {};
      const id = `urn:li:share:${7141138937766391808n + BigInt(api.posts.length)}`;
      const post: CreatedPost = { id, author: body.author, commentary: body.commentary, source, title, headers };
      const duplicate = api.posts.find((p) => p.commentary === post.commentary && p.source === post.source);
      if (duplicate)
        return [422, readFixture('jobs/network-duplicate-post-422.json').replace(/urn:li:share:\d+/, duplicate.id)];
      api.posts.push(post);
      if (api.loseAnswers-- > 0) return 'reset';
      return [201, '', { 'x-restli-id': post.id }];
    },
  );
}
export type FakeNetworkApi = Awaited<ReturnType<typeof startFakeNetworkApi>>;

const SIXTY_DAYS_SECONDS = 60 * 24 * 3600;
const oauthError = (code: number, message: string) =>
  JSON.stringify({ error: { message, type: 'OAuthException', code } });

/**
 * The photo platform's Graph API: `/me/media` checks `fields` and the token (the recorded 400 with
 * code 190 when unknown or expired); `/refresh_access_token` issues a new 60-day token for a valid one.
 */
export function startFakePhotoGraph(initialToken = 'IGQ-initial-token') {
  const expiry = () => Date.now() + SIXTY_DAYS_SECONDS * 1000;
  return startFake(
    () => ({
      /** Tokens the API accepts, with their expiry (Unix ms). */
      tokens: new Map([[initialToken, expiry()]]),
      media: readFixture('photo-feed/graph-me-media-mixed.json'),
    }),
    (request, graph) => {
      const { path, method, query } = request;
      const expired = (graph.tokens.get(query.get('access_token') ?? '') ?? 0) <= Date.now();
      const expiredBody = readFixture('photo-feed/graph-error-expired-token.json');
      if (path === '/me/media' && method === 'GET') {
        if (expired) return [400, expiredBody, { 'WWW-Authenticate': 'OAuth "Facebook Platform" "invalid_token"' }];
        const fields = (query.get('fields') ?? '').split(',');
        if (!['id', 'media_type', 'media_url', 'permalink', 'timestamp'].every((field) => fields.includes(field)))
          return [400, oauthError(100, '(#100) Missing fields')];
        return [200, graph.media];
      }
      if (path !== '/refresh_access_token' || method !== 'GET')
        return [404, oauthError(2500, 'Unknown path components')];
      if (query.get('grant_type') !== 'ig_refresh_token') return [400, oauthError(100, 'Unsupported grant_type')];
      if (expired) return [400, expiredBody];
      const fresh = `IGQ-refreshed-${graph.count('/refresh_access_token')}`;
      graph.tokens.set(fresh, expiry());
      return [200, JSON.stringify({ access_token: fresh, token_type: 'bearer', expires_in: SIXTY_DAYS_SECONDS })];
    },
  );
}
export type FakePhotoGraph = Awaited<ReturnType<typeof startFakePhotoGraph>>;
