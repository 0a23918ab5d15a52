import { type FakeQueueTimes, startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { type FakePhotoGraph, startFakePhotoGraph } from './fake-job-services.ts';
import { seedFinishedDay } from './finished-day.ts';
import { type OpenApi, OpenApiValidator } from './openapi-validator.ts';
import { type ServedSite, startServedSite } from './served-site.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

export interface FullSite {
  upstream: FakeQueueTimes;
  smtp: SmtpSink;
  graph: FakePhotoGraph;
  site: ServedSite;
  /** The environment the site was started with (to start it again the same way). */
  env: Record<string, string>;
  /** The document the site itself serves at /docs/openapi.json. */
  validator: OpenApiValidator;
  /** Stops the local fakes (the site is the caller's to stop: it may have been restarted). */
  closeFakes(): Promise<void>;
}

/**
 * The built site as `npm run serve` starts it with every feature on, against local fakes: live
 * wait times and park hours, the owner's token, mail to a real SMTP server, the photo feed.
 */
export async function startFullSite(options: { token: string; siteUrl: string }): Promise<FullSite> {
  const [upstream, smtp, graph] = await Promise.all([startFakeQueueTimes(), startSmtpSink(), startFakePhotoGraph()]);
  const env = {
    WAIT_TIMES_UPSTREAM_URL: upstream.url,
    PARK_HOURS_UPSTREAM_URL: upstream.url,
    LOCATION_TOKEN: options.token,
    SITE_URL: options.siteUrl,
    SMTP_URL: smtp.url,
    CONTACT_TO: 'owner@example.com',
    CONTACT_FROM: 'site@example.com',
    CONTACT_MAILTO: 'owner@example.com',
    PHOTO_FEED_ACCESS_TOKEN: 'IGQ-initial-token',
    PHOTO_FEED_UPSTREAM_URL: graph.url,
  };
  const site = await startServedSite({ env });
  await seedFinishedDay(site.dataDir);
  const response = await fetch(`${site.url}/docs/openapi.json`);
  const validator = new OpenApiValidator((await response.json()) as OpenApi);
  return {
    upstream,
    smtp,
    graph,
    site,
    env,
    validator,
    closeFakes: async () => {
      await Promise.all([upstream.close(), smtp.close(), graph.close()]);
    },
  };
}
