import { type FakeServer, json, PHOTO_FIXTURES_DIR, readFixture, startFake } from './fake-http-server.mts';

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
  /** `/me/media` requests answered so far (a delayed one counts once its answer is sent). */
  mediaAnswered(): number;
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
  const state = { media: readFixture(PHOTO_FIXTURES_DIR, 'graph-me-media-mixed.json'), delayMs: 0, answered: 0 };
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
      setTimeout(() => {
        state.answered++;
        json(res, 200, state.media);
      }, state.delayMs);
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
    mediaAnswered: { value: () => state.answered },
  }) as FakePhotoGraph;
}
