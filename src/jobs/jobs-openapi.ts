import { serviceUnavailable } from '../platform/errors.ts';
import {
  errorResponseObject,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
} from '../platform/openapi-vocabulary.ts';
import { RECORDS_UNAVAILABLE } from './job-status.ts';

const unavailable = {
  '503': errorResponseObject(
    'The job records cannot be read right now; a status would be a guess.',
    serviceUnavailable(RECORDS_UNAVAILABLE),
    PUBLIC_HEADERS,
  ),
};

export const jobPaths: Record<string, JsonObject> = {
  '/api/publish-status': publicGet({
    operationId: 'getPublishStatus',
    summary: 'Health of the daily publish job',
    description:
      'The daily publish job runs at 00:00 UTC and calls the site build hook (a POST) so that posts dated today go live. Every run is recorded; this reports the newest one and the state of the hook. Cached for 60 seconds.',
    tag: 'Job status',
    ok: 'The job and hook health.',
    content: jsonContent('PublishStatus', {
      job: 'daily-publish',
      status: 'ok',
      lastRun: {
        startedAt: '2026-11-21T00:00:00.012Z',
        finishedAt: '2026-11-21T00:00:00.431Z',
        outcome: 'success',
        message: 'build hook accepted the call (200)',
      },
      hook: { configured: true, state: 'ok', lastCalledAt: '2026-11-21T00:00:00.020Z', lastStatus: 200 },
    }),
    more: unavailable,
  }),
  '/api/professional-network-status': publicGet({
    operationId: 'getProfessionalNetworkStatus',
    summary: 'Health of the automatic sharing job',
    description:
      "The sharing job runs hourly, reads the site's feed and shares each new post once to the professional network (posts already in the feed at its first run are not shared). This reports the freshness of its access token and the newest share attempt. Cached for 60 seconds.",
    tag: 'Job status',
    ok: 'The job health, token freshness and last share.',
    content: jsonContent('ProfessionalNetworkStatus', {
      job: 'network-share',
      status: 'ok',
      token: { configured: true, expiresAt: '2027-01-15T00:00:00.000Z', fresh: true, daysLeft: 54 },
      lastShare: {
        at: '2026-11-20T09:00:01.250Z',
        url: 'https://example.com/posts/hello-world/',
        title: 'Hello, world',
        outcome: 'success',
        message: 'shared',
      },
    }),
    more: unavailable,
  }),
  '/api/recorder-status': publicGet({
    operationId: 'getRecorderStatus',
    summary: 'Health of the wait-times recorder',
    description:
      'The recorder runs every 5 minutes and asks for the live waits of every park that is open or within 30 minutes of opening or closing, so trend, forecast and the day learn from every period whoever visits; a park costs at most one upstream request per 5 minutes. This reports its newest run and what it did with each park. `stale` after 30 minutes without a run. Cached for 60 seconds.',
    tag: 'Job status',
    ok: 'The recorder health and its newest run, park by park.',
    content: jsonContent('RecorderStatus', {
      job: 'record-waits',
      status: 'ok',
      lastRun: {
        startedAt: '2026-11-21T15:05:00.020Z',
        finishedAt: '2026-11-21T15:05:01.310Z',
        outcome: 'success',
        message: 'polled 2, closed 1, already recorded 0, failed 0 of the parks',
      },
      parks: { polled: ['epcot', 'magic-kingdom'], closed: ['alphaland-paris'], alreadyRecorded: [], failed: [] },
    }),
    more: unavailable,
  }),
};
