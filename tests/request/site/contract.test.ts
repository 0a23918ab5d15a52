import type { Context } from '@netlify/functions';
import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import alertsFunction from '../../../netlify/functions/alerts.mts';
import contactFunction from '../../../netlify/functions/contact.mts';
import locationFunction from '../../../netlify/functions/location.mts';
import type { FaultMode } from '../../../scripts/fake-http-server.mts';
import type { FakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import * as alertsKeyEndpoint from '../../../src/pages/api/alerts/key.ts';
import * as eventsAtomEndpoint from '../../../src/pages/api/parks/[slug]/events.atom.ts';
import * as eventsEndpoint from '../../../src/pages/api/parks/[slug]/events.ts';
import * as photoFeedEndpoint from '../../../src/pages/api/photo-feed.ts';
import * as networkStatusEndpoint from '../../../src/pages/api/professional-network-status.ts';
import * as publishStatusEndpoint from '../../../src/pages/api/publish-status.ts';
import * as recorderStatusEndpoint from '../../../src/pages/api/recorder-status.ts';
import { contractProblems } from '../../support/contract-check.ts';
import { FINISHED_DAY } from '../../support/finished-day.ts';
import { type FullSite, startFullSite } from '../../support/full-site.ts';
import type { OpenApiValidator } from '../../support/openapi-validator.ts';
import { testSubscriber } from '../../support/push-receiver.ts';
import type { ServedSite } from '../../support/served-site.ts';
import type { SmtpSink } from '../../support/smtp-sink.ts';

/**
 * The contract test: real requests to the built server, every answer checked against
 * /docs/openapi.json as the server itself publishes it. A status the document does not list for
 * the operation, a body that does not match its schema (JSON Schema 2020-12, Ajv), a missing
 * required header or a header value outside its schema fails. So does a documented
 * operation+status that no case below exercises: add a case with every new response.
 */
interface Case {
  /** What the case shows, as a sentence. */
  name: string;
  /** The documented operation the answer belongs to (a 405 belongs to the path's GET). */
  operationId: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** How the fake provider behaves for this case. */
  upstream?: FaultMode;
  /** First GET the same URL and send its ETag in `If-None-Match`. */
  conditional?: true;
  /** Send the same request this many times first (to reach a rate limit). */
  repeatBefore?: number;
  /**
   * For states the served site cannot be put in from outside (its embedded Blobs store down):
   * the answer of the real handler called in-process, checked against the same document.
   */
  direct?: () => Promise<Response>;
  /** Puts a collaborator in the state the case needs; the returned function restores it. */
  setup?: () => () => void;
}

const TOKEN = 'contract-test-owner-token-0123456789';
const json = (value: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) });
const owner = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };

/** Calls a handler in-process with `env` set, restoring the environment after. */
async function withEnv(env: Record<string, string | undefined>, run: () => Promise<Response>): Promise<Response> {
  const saved = { ...process.env };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return await run();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}
const functionContext = { ip: '198.51.100.1', params: {}, waitUntil: () => {} } as unknown as Context;

/** Blobs pointing at a closed port, as during an outage. */
const withBlobsDown = (run: () => Promise<Response>) =>
  withEnv(
    {
      NETLIFY_BLOBS_CONTEXT: Buffer.from(
        JSON.stringify({
          siteID: 'x',
          token: 'x',
          edgeURL: 'http://127.0.0.1:9',
          uncachedEdgeURL: 'http://127.0.0.1:9',
        }),
      ).toString('base64'),
      LOCATION_TOKEN: TOKEN,
    },
    run,
  );

const SITE_URL = 'http://localhost:4321';
const message = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello from the contract test.' };
let smtp: SmtpSink;

/** Calls an Astro GET endpoint in-process, as its route would. */
const astroGet =
  (endpoint: { GET: (context: APIContext) => Response | Promise<Response> }, url: string, params = {}) =>
  () =>
    Promise.resolve(
      endpoint.GET({
        url: new URL(url),
        request: new Request(url),
        params,
        cache: { set() {} },
      } as unknown as APIContext),
    );

/** POST /api/alerts to the served site for a fresh browser subscription on the fake push service. */
const postAlert = () =>
  fetch(`${site.url}/api/alerts`, {
    method: 'POST',
    ...json({
      subscription: { endpoint: full.push.endpoint('contract'), keys: testSubscriber().keys },
      park: 'epcot',
      ride: 159,
      on: 'reopened',
    }),
  });

const CASES: Case[] = [
  // GET /api/wait-times
  {
    name: 'answers the rides of a park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epcot',
    status: 200,
  },
  {
    name: 'answers a park whose recording has rides at top level too',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epsilonpark',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=epcot',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses a missing park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times',
    status: 400,
  },
  {
    name: 'refuses an empty park',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=',
    status: 400,
  },
  {
    name: 'does not know a park that is not in the table',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=atlantis',
    status: 404,
  },
  {
    name: 'refuses DELETE on the wait times',
    operationId: 'getWaitTimes',
    method: 'DELETE',
    url: '/api/wait-times?park=epcot',
    status: 405,
  },
  {
    name: 'refuses POST on the wait times',
    operationId: 'getWaitTimes',
    method: 'POST',
    url: '/api/wait-times?park=epcot',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    status: 405,
  },
  {
    name: 'answers 502 when the provider fails and nothing was fetched before',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=zetawood',
    upstream: 'error-500',
    status: 502,
  },
  {
    name: 'answers 502 when the provider sends garbage and nothing was fetched before',
    operationId: 'getWaitTimes',
    method: 'GET',
    url: '/api/wait-times?park=volcano-bay',
    upstream: 'html-error',
    status: 502,
  },

  // GET /api/wait-times/history
  {
    name: 'answers the day so far of a park',
    operationId: 'getWaitHistory',
    method: 'GET',
    url: '/api/wait-times/history?park=epcot',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match for the day',
    operationId: 'getWaitHistory',
    method: 'GET',
    url: '/api/wait-times/history?park=alphaland',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses a day without a park',
    operationId: 'getWaitHistory',
    method: 'GET',
    url: '/api/wait-times/history',
    status: 400,
  },
  {
    name: 'does not know the day of a park that is not in the table',
    operationId: 'getWaitHistory',
    method: 'GET',
    url: '/api/wait-times/history?park=atlantis',
    status: 404,
  },
  {
    name: 'refuses PUT on the day',
    operationId: 'getWaitHistory',
    method: 'PUT',
    url: '/api/wait-times/history?park=epcot',
    status: 405,
  },
  {
    name: 'answers an empty day, not 502, when the provider fails and nothing was recorded',
    operationId: 'getWaitHistory',
    method: 'GET',
    url: '/api/wait-times/history?park=delta-gardens-tampa',
    upstream: 'error-500',
    status: 200,
  },

  // GET /api/wait-times/days (startFullSite writes a finished EPCOT day into the site's store: finished-day.ts)
  {
    name: 'answers a finished day of a park',
    operationId: 'getParkDay',
    method: 'GET',
    url: `/api/wait-times/days?park=epcot&date=${FINISHED_DAY}`,
    status: 200,
  },
  {
    name: 'answers a finished day of a park as CSV',
    operationId: 'getParkDay',
    method: 'GET',
    url: `/api/wait-times/days?park=epcot&date=${FINISHED_DAY}&format=csv`,
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match for a finished day',
    operationId: 'getParkDay',
    method: 'GET',
    url: `/api/wait-times/days?park=epcot&date=${FINISHED_DAY}&format=csv`,
    conditional: true,
    status: 304,
  },
  {
    name: 'does not answer a day that has not ended',
    operationId: 'getParkDay',
    method: 'GET',
    url: '/api/wait-times/days?park=epcot&date=2099-01-01',
    status: 404,
  },
  {
    name: 'refuses a malformed date',
    operationId: 'getParkDay',
    method: 'GET',
    url: '/api/wait-times/days?park=epcot&date=2026-02-30',
    status: 400,
  },
  {
    name: 'does not know the days of a park that is not in the table',
    operationId: 'getParkDay',
    method: 'GET',
    url: `/api/wait-times/days?park=atlantis&date=${FINISHED_DAY}`,
    status: 404,
  },
  {
    name: 'refuses PUT on a day',
    operationId: 'getParkDay',
    method: 'PUT',
    url: `/api/wait-times/days?park=epcot&date=${FINISHED_DAY}`,
    status: 405,
  },

  // GET /api/parks/{slug}/events and events.atom (the site's recorder is off: no events, empty feeds)
  ...(
    [
      ['getParkEvents', '/api/parks/epcot/events', eventsEndpoint],
      ['getParkEventsAtom', '/api/parks/epcot/events.atom', eventsAtomEndpoint],
    ] as const
  ).flatMap(([operationId, url, endpoint]): Case[] => [
    { name: "answers the park's feed", operationId, method: 'GET', url, status: 200 },
    {
      name: 'answers the feed filtered by rides, types and wait',
      operationId,
      method: 'GET',
      url: `${url}?ride=159&ride=151&type=wait-below&below=20`,
      status: 200,
    },
    {
      name: 'answers 304 to a matching If-None-Match',
      operationId,
      method: 'GET',
      url,
      conditional: true,
      status: 304,
    },
    { name: 'refuses a malformed filter', operationId, method: 'GET', url: `${url}?below=soon`, status: 400 },
    {
      name: 'does not know a park that is not in the table',
      operationId,
      method: 'GET',
      url: url.replace('epcot', 'atlantis'),
      status: 404,
    },
    { name: 'refuses POST on the feed', operationId, method: 'POST', url, status: 405 },
    {
      name: 'answers 503 while the events cannot be read',
      operationId,
      method: 'GET',
      url,
      status: 503,
      direct: () => withBlobsDown(astroGet(endpoint, `http://localhost${url}`, { slug: 'epcot' })),
    },
  ]),

  // GET /api/parks
  {
    name: "lists every park with today's hours from the fake provider",
    operationId: 'listParks',
    method: 'GET',
    url: '/api/parks',
    status: 200,
  },
  {
    name: 'lists every park with unknown hours when the provider fails',
    operationId: 'listParks',
    method: 'GET',
    url: '/api/parks?fresh=1',
    upstream: 'error-500',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match for the parks',
    operationId: 'listParks',
    method: 'GET',
    url: '/api/parks',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses DELETE on the parks',
    operationId: 'listParks',
    method: 'DELETE',
    url: '/api/parks',
    status: 405,
  },

  // GET /api/accuracy (the site's store holds no grades: every park listed, nothing graded)
  {
    name: 'answers the scorecard of every park',
    operationId: 'getAccuracy',
    method: 'GET',
    url: '/api/accuracy',
    status: 200,
  },
  {
    name: 'answers the scorecard of one park',
    operationId: 'getAccuracy',
    method: 'GET',
    url: '/api/accuracy?park=epcot',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match for the scorecard',
    operationId: 'getAccuracy',
    method: 'GET',
    url: '/api/accuracy?park=alphaland',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses an empty park for the scorecard',
    operationId: 'getAccuracy',
    method: 'GET',
    url: '/api/accuracy?park=',
    status: 400,
  },
  {
    name: 'does not know the scorecard of a park that is not in the table',
    operationId: 'getAccuracy',
    method: 'GET',
    url: '/api/accuracy?park=atlantis',
    status: 404,
  },
  {
    name: 'refuses POST on the scorecard',
    operationId: 'getAccuracy',
    method: 'POST',
    url: '/api/accuracy',
    status: 405,
  },

  // GET /api/location
  {
    name: 'answers the stale marker with no pin',
    operationId: 'getLocation',
    method: 'GET',
    url: '/api/location',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getLocation',
    method: 'GET',
    url: '/api/location',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses DELETE on the pin',
    operationId: 'getLocation',
    method: 'DELETE',
    url: '/api/location',
    status: 405,
  },

  // POST /api/location (the 429 comes last: it locks this client out of the endpoint)
  {
    name: 'takes a plain update from the owner',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: owner,
    body: JSON.stringify({ lat: 48.8583, lon: 2.2945, label: 'Paris' }),
    status: 200,
  },
  {
    name: 'takes an OwnTracks message from the owner',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: owner,
    body: JSON.stringify({ _type: 'location', lat: 48.85, lon: 2.29, tst: Math.floor(Date.now() / 1000) }),
    status: 200,
  },
  {
    name: 'refuses a latitude out of range',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: owner,
    body: JSON.stringify({ lat: 100, lon: 0 }),
    status: 400,
  },
  {
    name: 'refuses a body over 64 KiB',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: owner,
    body: JSON.stringify({ lat: 1, lon: 1, label: 'x'.repeat(70_000) }),
    status: 413,
  },
  {
    name: 'refuses a body that is not JSON',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' },
    body: 'lat=1',
    status: 415,
  },
  {
    name: 'answers 503 while the pin store is down',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    status: 503,
    direct: () =>
      withBlobsDown(() =>
        locationFunction(
          new Request('http://localhost/api/location', { method: 'POST', ...json({ lat: 1, lon: 2 }), headers: owner }),
          functionContext,
        ),
      ),
  },
  {
    name: 'refuses a request without a token',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    ...json({ lat: 1, lon: 2 }),
    status: 401,
  },
  {
    name: 'refuses a wrong token',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: { Authorization: 'Bearer not-the-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ lat: 1, lon: 2 }),
    status: 401,
  },
  {
    name: 'locks out a client after repeated wrong tokens',
    operationId: 'updateLocation',
    method: 'POST',
    url: '/api/location',
    headers: { Authorization: 'Bearer still-not-the-token', 'Content-Type': 'application/json' },
    body: JSON.stringify({ lat: 1, lon: 2 }),
    repeatBefore: 10,
    status: 429,
  },

  // POST /api/contact (the 429 comes last: it locks this client out of the endpoint)
  {
    name: 'sends a message to the owner',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    ...json(message),
    status: 200,
  },
  {
    name: 'keeps a message for later while the mail server is down',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    ...json(message),
    setup: () => {
      smtp.setFailing(true);
      return () => smtp.setFailing(false);
    },
    status: 202,
  },
  {
    name: 'sends a plain HTML form post back to the page it came from',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'text/html',
      Origin: SITE_URL,
      Referer: `${SITE_URL}/contact/`,
    },
    body: new URLSearchParams({ ...message, website: '' }).toString(),
    status: 303,
  },
  {
    name: 'lists every invalid field',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    ...json({ name: '', email: 'not an address' }),
    status: 400,
  },
  {
    name: 'refuses a post from a page of another site',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' },
    body: JSON.stringify(message),
    status: 403,
  },
  {
    name: 'refuses GET on the contact endpoint',
    operationId: 'sendContactMessage',
    method: 'GET',
    url: '/api/contact',
    status: 405,
  },
  {
    name: 'refuses a body over 32 KiB',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    ...json({ ...message, message: 'x'.repeat(40_000) }),
    status: 413,
  },
  {
    name: 'refuses a body that is neither JSON nor a form',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    headers: { 'Content-Type': 'text/plain' },
    body: 'hello',
    status: 415,
  },
  {
    name: 'offers the mailto link when mail is not configured',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    status: 503,
    direct: () =>
      withEnv({ SMTP_URL: undefined, CONTACT_MAILTO: 'owner@example.com' }, () =>
        contactFunction(
          new Request('http://localhost/api/contact', { method: 'POST', ...json(message) }),
          functionContext,
        ),
      ),
  },
  {
    name: 'limits one client to 5 messages an hour',
    operationId: 'sendContactMessage',
    method: 'POST',
    url: '/api/contact',
    ...json(message),
    repeatBefore: 5,
    status: 429,
  },

  // GET /api/publish-status, /api/professional-network-status and /api/recorder-status
  ...(
    [
      ['getPublishStatus', '/api/publish-status', publishStatusEndpoint],
      ['getProfessionalNetworkStatus', '/api/professional-network-status', networkStatusEndpoint],
      ['getRecorderStatus', '/api/recorder-status', recorderStatusEndpoint],
    ] as const
  ).flatMap(([operationId, url, endpoint]): Case[] => [
    { name: 'reports the job', operationId, method: 'GET', url, status: 200 },
    {
      name: 'answers 304 to a matching If-None-Match',
      operationId,
      method: 'GET',
      url,
      conditional: true,
      status: 304,
    },
    { name: 'refuses PUT', operationId, method: 'PUT', url, status: 405 },
    {
      name: 'answers 503 while the job records cannot be read',
      operationId,
      method: 'GET',
      url,
      status: 503,
      direct: () => withBlobsDown(astroGet(endpoint, `http://localhost${url}`)),
    },
  ]),

  // GET /api/photo-feed
  { name: 'answers the recent posts', operationId: 'getPhotoFeed', method: 'GET', url: '/api/photo-feed', status: 200 },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getPhotoFeed',
    method: 'GET',
    url: '/api/photo-feed',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses DELETE on the feed',
    operationId: 'getPhotoFeed',
    method: 'DELETE',
    url: '/api/photo-feed',
    status: 405,
  },
  {
    name: 'answers 502 when the platform fails and nothing was fetched before',
    operationId: 'getPhotoFeed',
    method: 'GET',
    url: '/api/photo-feed',
    status: 502,
    direct: () =>
      withEnv(
        { PHOTO_FEED_ACCESS_TOKEN: 'IGQ-contract', PHOTO_FEED_UPSTREAM_URL: 'http://127.0.0.1:9' },
        astroGet(photoFeedEndpoint, 'http://localhost/api/photo-feed'),
      ),
  },

  // POST /api/alerts, DELETE /api/alerts/{id}, GET /api/alerts/key (the 429 comes last: it locks this client out)
  {
    name: 'keeps an alert for one ride',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    status: 201,
    direct: () => postAlert(),
  },
  {
    name: 'names the invalid fields of an alert',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    ...json({ park: 'epcot', ride: 'x', on: 'below' }),
    status: 400,
  },
  {
    name: 'refuses GET on the alerts endpoint',
    operationId: 'createAlert',
    method: 'GET',
    url: '/api/alerts',
    status: 405,
  },
  {
    name: 'refuses an alert body over 4 KiB',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    ...json({ padding: 'x'.repeat(5000) }),
    status: 413,
  },
  {
    name: 'refuses an alert body that is not JSON',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    headers: { 'Content-Type': 'text/plain' },
    body: 'hello',
    status: 415,
  },
  {
    name: 'says so when web push is not configured',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    status: 503,
    direct: () =>
      withEnv({ VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined, VAPID_SUBJECT: undefined }, () =>
        alertsFunction(new Request('http://localhost/api/alerts', { method: 'POST', ...json({}) }), functionContext),
      ),
  },
  {
    name: 'cancels an alert',
    operationId: 'cancelAlert',
    method: 'DELETE',
    url: '/api/alerts/{id}',
    status: 204,
    direct: async () => {
      const { id } = (await (await postAlert()).json()) as { id: string };
      return fetch(`${site.url}/api/alerts/${id}`, { method: 'DELETE' });
    },
  },
  {
    name: 'answers 404 to an unknown alert',
    operationId: 'cancelAlert',
    method: 'DELETE',
    url: '/api/alerts/AAAAAAAAAAAAAAAAAAAAAA',
    status: 404,
  },
  {
    name: 'refuses GET on an alert',
    operationId: 'cancelAlert',
    method: 'GET',
    url: '/api/alerts/AAAAAAAAAAAAAAAAAAAAAA',
    status: 405,
  },
  {
    name: 'gives the VAPID public key',
    operationId: 'getVapidKey',
    method: 'GET',
    url: '/api/alerts/key',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getVapidKey',
    method: 'GET',
    url: '/api/alerts/key',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses PUT on the key',
    operationId: 'getVapidKey',
    method: 'PUT',
    url: '/api/alerts/key',
    status: 405,
  },
  {
    name: 'answers 503 when web push is not configured',
    operationId: 'getVapidKey',
    method: 'GET',
    url: '/api/alerts/key',
    status: 503,
    direct: () =>
      withEnv(
        { VAPID_PUBLIC_KEY: undefined, VAPID_PRIVATE_KEY: undefined, VAPID_SUBJECT: undefined },
        astroGet(alertsKeyEndpoint, 'http://localhost/api/alerts/key'),
      ),
  },
  {
    name: 'limits one client to 20 alerts an hour',
    operationId: 'createAlert',
    method: 'POST',
    url: '/api/alerts',
    status: 429,
    direct: async () => {
      for (let n = 0; n < 25; n++) {
        const response = await postAlert();
        if (response.status === 429) return response;
        await response.arrayBuffer();
      }
      throw new Error('no 429 after 25 alerts');
    },
  },

  // GET /.well-known/oauth-protected-resource
  {
    name: 'describes the protected resource',
    operationId: 'getProtectedResourceMetadata',
    method: 'GET',
    url: '/.well-known/oauth-protected-resource',
    status: 200,
  },
  {
    name: 'answers 304 to a matching If-None-Match',
    operationId: 'getProtectedResourceMetadata',
    method: 'GET',
    url: '/.well-known/oauth-protected-resource',
    conditional: true,
    status: 304,
  },
  {
    name: 'refuses POST on the metadata',
    operationId: 'getProtectedResourceMetadata',
    method: 'POST',
    url: '/.well-known/oauth-protected-resource',
    status: 405,
  },
];

const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

let site: ServedSite;
let upstream: FakeQueueTimes;
let validator: OpenApiValidator;

let full: FullSite;

beforeAll(async () => {
  full = await startFullSite({ token: TOKEN, siteUrl: SITE_URL });
  ({ upstream, smtp, site, validator } = full);
});

afterAll(async () => {
  await site?.stop();
  await full?.closeFakes();
});

async function send(c: Case, method = c.method): Promise<Response> {
  if (c.direct) return c.direct();
  const headers = new Headers(c.headers);
  for (let i = 0; i < (c.repeatBefore ?? 0); i++) {
    await (await fetch(`${site.url}${c.url}`, { method, headers, body: c.body ?? null })).arrayBuffer();
  }
  if (c.conditional) {
    const first = await fetch(`${site.url}${c.url}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    if (!etag) throw new Error(`${c.url} sent no ETag to make a conditional request with`);
    headers.set('If-None-Match', etag);
  }
  upstream.mode = c.upstream ?? 'ok';
  try {
    return await fetch(`${site.url}${c.url}`, { method, headers, body: c.body ?? null, redirect: 'manual' });
  } finally {
    upstream.mode = 'ok';
  }
}

describe('every response matches /docs/openapi.json', () => {
  it.each(CASES)('$method $url $name ($status)', async (c) => {
    const restore = c.setup?.();
    const response = await send(c).finally(() => restore?.());
    const body = await response.text();
    expect(response.status, body).toBe(c.status);
    expect(contractProblems(validator, c.operationId, response, body)).toEqual([]);
  });

  it.each(CASES.filter((c) => c.method === 'GET' && !c.direct))(
    'HEAD $url answers like GET, without a body ($status)',
    async (c) => {
      const get = await send(c);
      await get.arrayBuffer();
      const head = await send(c, 'HEAD');
      expect(head.status).toBe(get.status);
      expect(await head.text()).toBe('');
      // Retry-After counts down between the two requests: it must be there, not equal. X-Astro-Cache
      // is the local route cache's debug note (GET only).
      const skipped = [
        'x-astro-cache',
        'date',
        'content-length',
        'transfer-encoding',
        'connection',
        'keep-alive',
        'retry-after',
      ];
      const comparable = (headers: Headers) =>
        Object.fromEntries([...headers].filter(([name]) => !skipped.includes(name)));
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect(head.headers.has('retry-after')).toBe(get.headers.has('retry-after'));
    },
  );

  it('has a case for every operation and status the document lists', () => {
    const covered = new Set(CASES.map((c) => `${c.operationId} ${c.status}`));
    const documented = validator
      .operations()
      .flatMap(({ operation }) =>
        Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`),
      );
    expect(documented.filter((entry) => !covered.has(entry))).toEqual([]);
  });

  it('refers only to operations the document has, each with a unique operationId', () => {
    const ids = validator.operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(CASES.map((c) => c.operationId).filter((id) => !ids.includes(id))).toEqual([]);
    expect(
      validator.operations().filter(({ method }) => !HTTP_METHODS.includes(method)),
      'operations under unknown keys',
    ).toEqual([]);
  });
});
