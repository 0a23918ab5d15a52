import { createECDH } from 'node:crypto';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../scripts/fake-queue-times.mts';
import { type FakePhotoGraph, startFakePhotoGraph } from './fake-job-services.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import { seedFinishedDay } from './finished-day.ts';
import { type OpenApi, OpenApiValidator } from './openapi-validator.ts';
import { type ServedSite, startServedSite } from './served-site.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

export interface FullSite {
  upstream: FakeQueueTimes;
  smtp: SmtpSink;
  graph: FakePhotoGraph;
  /** The push service the site's alerts may use (PUSH_ALLOWED_ORIGINS names it). */
  push: FakePushService;
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
 * wait times and park hours, the owner's token, mail to a real SMTP server, the photo feed, push
 * alerts (a fresh VAPID key pair, a fake push service on loopback).
 */
export async function startFullSite(options: { token: string; siteUrl: string }): Promise<FullSite> {
  const [upstream, smtp, graph, push] = await Promise.all([
    startFakeQueueTimes(),
    startSmtpSink(),
    startFakePhotoGraph(),
    startFakePushService(),
  ]);
  const vapid = createECDH('prime256v1');
  vapid.generateKeys();
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
    VAPID_PUBLIC_KEY: vapid.getPublicKey().toString('base64url'),
    VAPID_PRIVATE_KEY: vapid.getPrivateKey().toString('base64url'),
    VAPID_SUBJECT: 'mailto:owner@example.com',
    PUSH_ALLOWED_ORIGINS: push.origin,
  };
  const site = await startServedSite({ env });
  await seedFinishedDay(site.dataDir);
  const response = await fetch(`${site.url}/docs/openapi.json`);
  const validator = new OpenApiValidator((await response.json()) as OpenApi);
  return {
    upstream,
    smtp,
    graph,
    push,
    site,
    env,
    validator,
    closeFakes: async () => {
      await Promise.all([upstream.close(), smtp.close(), graph.close(), push.close()]);
    },
  };
}
