import {
  type FeedEntry,
  startFakeBuildHook,
  startFakeNetworkApi,
  startFakePhotoGraph,
  startFakePostFeed,
} from '../../scripts/fake-job-services.mts';
import { startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { startSmtpSink } from '../../tests/support/smtp-sink.ts';

/**
 * Every upstream of the site for `npm run soak`, on 127.0.0.1, in a process of its own started
 * with the same fake clock as the server (tests/support/fake-clock.mjs), so that the replayed
 * waits move, tokens age and posts are dated on the simulated clock. Driven over IPC:
 * - `{type:'smtp-failing', failing}`: the SMTP server turns connections away with 421 (or stops);
 * - `{type:'publish-post'}`: a new post appears in the site's feed (for the hourly sharing job);
 * - `{type:'stats'}`: what each fake received so far.
 */

export const NETWORK_TOKEN = 'soak-network-token';
export const PHOTO_TOKEN = 'IGQ-soak-initial-token';
export const CONTACT_TO = 'owner@example.com';
export const CONTACT_FROM = 'site@example.com';

export interface FakesReady {
  type: 'fakes-ready';
  /** The server's environment for these fakes (every feature configured). */
  env: Record<string, string>;
}

export interface FakesStats {
  type: 'fakes-stats';
  upstreamRequests: number;
  /** Most upstream requests one park's path received. */
  upstreamPaths: number;
  mails: number;
  /** Distinct Message-IDs among the mails (a retried message keeps its id). */
  distinctMessageIds: number;
  builds: number;
  sharedPosts: number;
  photoMediaRequests: number;
  photoTokensIssued: number;
  postsInFeed: number;
}

const upstream = await startFakeQueueTimes({ moving: true });
const smtp = await startSmtpSink();
const [hook, feed, network, photo] = await Promise.all([
  startFakeBuildHook(),
  startFakePostFeed([]),
  startFakeNetworkApi(NETWORK_TOKEN),
  startFakePhotoGraph(PHOTO_TOKEN),
]);

let postNumber = 0;
const publishPost = () => {
  postNumber += 1;
  const post: FeedEntry = {
    id: `soak-post-${postNumber}`,
    url: `https://example.com/posts/${postNumber}/`,
    title: `Soak post ${postNumber}`,
    summary: `Post number ${postNumber}, published while the soak ran.`,
    date: new Date(Date.now() - 60_000).toISOString(),
  };
  // Newest first; a feed keeps its latest 20 entries.
  feed.posts = [post, ...feed.posts].slice(0, 20);
};
publishPost();

const stats = (): FakesStats => ({
  type: 'fakes-stats',
  upstreamRequests: upstream.total(),
  upstreamPaths: upstream.counts.size,
  mails: smtp.mails.length,
  distinctMessageIds: new Set(smtp.mails.map((mail) => mail.parsed.messageId)).size,
  builds: hook.builds(),
  sharedPosts: network.posts.length,
  photoMediaRequests: photo.mediaRequests(),
  photoTokensIssued: photo.issued.length,
  postsInFeed: feed.posts.length,
});

process.on('message', (message: { type?: string; failing?: boolean }) => {
  switch (message?.type) {
    case 'smtp-failing':
      smtp.setFailing(message.failing === true);
      process.send?.({ type: 'smtp-failing-set' });
      break;
    case 'publish-post':
      publishPost();
      process.send?.({ type: 'post-published' });
      break;
    case 'stats':
      process.send?.(stats());
      break;
    case 'stop':
      Promise.all([upstream.close(), smtp.close(), hook.close(), feed.close(), network.close(), photo.close()]).then(
        () => process.exit(0),
      );
      break;
  }
});

const ready: FakesReady = {
  type: 'fakes-ready',
  env: {
    WAIT_TIMES_UPSTREAM_URL: upstream.url,
    SMTP_URL: smtp.url,
    CONTACT_TO,
    CONTACT_FROM,
    CONTACT_MAILTO: CONTACT_TO,
    PHOTO_FEED_ACCESS_TOKEN: PHOTO_TOKEN,
    PHOTO_FEED_UPSTREAM_URL: photo.url,
    PUBLISH_HOOK_URL: hook.hookUrl,
    NETWORK_ACCESS_TOKEN: NETWORK_TOKEN,
    // Far enough ahead of the simulated clock for any soak.
    NETWORK_TOKEN_EXPIRES_AT: new Date(Date.now() + 50 * 24 * 3_600_000).toISOString(),
    NETWORK_FEED_URL: feed.jsonFeedUrl,
    NETWORK_AUTHOR_URN: 'urn:li:person:soak123',
    NETWORK_API_URL: network.url,
  },
};
process.send?.(ready);
