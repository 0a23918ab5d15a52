import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePhotoGraph, startFakePhotoGraph } from '../../../scripts/fake-job-services.mts';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { type RunningSite, startSite } from '../../../server/runtime.mts';
import { isFresh, mirrorKey, routeCacheMirror } from '../../../src/platform/cache/route-cache-mirror.ts';
import { LoopbackClient, type RawAnswer } from '../../support/loopback-client.ts';
import { ROOT } from '../../support/served-site.ts';

/**
 * The local runtime answers a fresh route-cache copy itself (the fast path); without it, Astro
 * answers the same request from its own route cache. Both must send the same thing. Two runtimes
 * in this process share one Astro app (the build is imported once), so one fills the cache and
 * both read it; requests carry one `Host`, as the cache key holds the origin.
 *
 * Compared: status, body, and every header but `Date` (the time each answer was sent, RFC 9110
 * §6.6.1, which differs by the milliseconds between the two requests).
 */
const HOST = 'localhost:4321';
const SITE_URL = `http://${HOST}`;

// Every public GET endpoint and discovery document, and whether Astro's route cache keeps it
// (only those have a fast path; the rest are prerendered files or not cached, and go one way).
const PATHS: [string, boolean][] = [
  ['/api/wait-times?park=epcot', true],
  ['/api/wait-times?park=alphaland-paris', true],
  ['/api/publish-status', true],
  ['/api/professional-network-status', true],
  ['/api/photo-feed', true],
  ['/api/location', true],
  ['/.well-known/api-catalog', true],
  ['/.well-known/oauth-protected-resource', false],
  ['/.well-known/agent-skills/index.json', false],
  ['/.well-known/agent-skills/park-wait-times/SKILL.md', false],
  ['/docs/openapi.json', false],
  ['/docs/api/', false],
];
const ENV = ['WAIT_TIMES_UPSTREAM_URL', 'PHOTO_FEED_ACCESS_TOKEN', 'PHOTO_FEED_UPSTREAM_URL', 'SITE_URL'] as const;

let upstream: FakeQueueTimes;
let graph: FakePhotoGraph;
let dataDir: string;
let fast: RunningSite;
let astroOnly: RunningSite;
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
const clients: LoopbackClient[] = [];

beforeAll(async () => {
  [upstream, graph] = await Promise.all([startFakeQueueTimes(), startFakePhotoGraph()]);
  Object.assign(process.env, {
    WAIT_TIMES_UPSTREAM_URL: upstream.url,
    PHOTO_FEED_ACCESS_TOKEN: 'IGQ-initial-token',
    PHOTO_FEED_UPSTREAM_URL: graph.url,
    SITE_URL,
  });
  dataDir = await mkdtemp(path.join(tmpdir(), 'site-api-fast-path-'));
  const options = { host: '127.0.0.1', port: 0, siteUrl: SITE_URL, dataDir, root: ROOT, schedules: false };
  fast = await startSite(options);
  astroOnly = await startSite({ ...options, routeCacheFastPath: false });
});
afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all([fast?.close(), astroOnly?.close()]);
  await Promise.all([upstream?.close(), graph?.close()]);
  for (const name of ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await rm(dataDir, { recursive: true, force: true });
});

async function get(site: RunningSite, target: string, headers: [string, string][] = []): Promise<RawAnswer> {
  const client = new LoopbackClient(site.url);
  clients.push(client);
  return client.send({ method: 'GET', target, headers: [['Host', HOST], ...headers], from: '127.0.0.1' }, 20_000);
}

const comparable = (answer: RawAnswer) => ({
  status: answer.status,
  headers: [...answer.headers].filter(([name]) => name !== 'date'),
  body: answer.body.toString('utf8'),
});

describe('a fresh route-cache hit', () => {
  it.each(PATHS)('of %s is answered alike by the fast path and by Astro (cached: %s)', async (target, cached) => {
    const first = await get(fast, target);
    expect(first.status, target).toBe(200);
    const entry = routeCacheMirror()?.get(mirrorKey(new URL(target, SITE_URL)));
    // A fresh mirrored copy means the fast path answers the next request (not Astro).
    expect(entry !== undefined && isFresh(entry), target).toBe(cached);
    const throughAstro = await get(astroOnly, target);
    const throughFastPath = await get(fast, target);
    if (cached) expect(throughAstro.headers.get('x-astro-cache')).toBe('HIT');
    expect(comparable(throughFastPath)).toEqual(comparable(throughAstro));
  });

  it.each(PATHS)('of %s is answered alike by both when revalidated with If-None-Match (304)', async (target) => {
    const etag = (await get(fast, target)).headers.get('etag') ?? '';
    expect(etag, target).not.toBe('');
    const condition: [string, string][] = [['If-None-Match', etag]];
    const throughAstro = await get(astroOnly, target, condition);
    const throughFastPath = await get(fast, target, condition);
    expect(throughFastPath.status, target).toBe(304);
    expect(comparable(throughFastPath)).toEqual(comparable(throughAstro));
  });
});
