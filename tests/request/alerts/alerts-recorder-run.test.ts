import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { findPark, type Park } from '../../../src/wait-times/parks.ts';
import { created, SITE, SUBJECT, subscribe, subscriber, vapid } from '../../support/alerts-harness.ts';
import { type FakePushService, openPush, startFakePushService } from '../../support/fake-push-service.ts';
import { at, localTime, onlyOpen, useRecorderHarness } from '../../support/recorder-harness.ts';

// The whole path of a push: a browser subscribes, the recorder's job polls the fake upstream as the
// ride goes down and comes back, and the push leaves within the run whose sample shows it reopened.

const EPCOT = findPark('epcot') as Park;
const DATE = '2026-07-04';
const local = (time: string) => localTime(EPCOT, `${DATE}T${time}`);
const hoursOf = onlyOpen(EPCOT, local('09:00:00'), local('21:00:00'));
const COASTER = 101;
const TOWER = 159;

/** SYNTHETIC payload: the coaster open, the tower open or closed. */
const payloadOf = (towerWait: number | null) => ({
  lands: [
    {
      id: 1,
      name: 'World Discovery',
      rides: [
        { id: COASTER, name: 'Test Coaster', is_open: true, wait_time: 20 },
        { id: TOWER, name: 'Test Track', is_open: towerWait !== null, wait_time: towerWait ?? 0 },
      ],
    },
  ],
  rides: [],
});

const harness = useRecorderHarness({ moving: false });
let push: FakePushService;
beforeAll(async () => {
  push = await startFakePushService();
});
afterAll(() => push.close());
beforeEach(() => {
  Object.assign(process.env, {
    SITE_URL: SITE,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: SUBJECT,
    PUSH_ALLOWED_ORIGINS: push.origin,
  });
});
afterEach(() => {
  for (const key of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT', 'PUSH_ALLOWED_ORIGINS']) {
    delete process.env[key];
  }
});

describe('a push within the recorder run that saw the change', () => {
  it('pushes the reopening in the run whose sample shows it, once, and nothing before', async () => {
    at(local('08:55:00'));
    const { browser, body } = subscriber(push, { park: EPCOT.slug, ride: TOWER, on: 'reopened' });
    await created(await subscribe(body));
    const script: [string, number | null, number][] = [
      ['09:00:20', 30, 0],
      ['09:05:20', null, 0], // closed: a blip so far
      ['09:10:20', null, 0], // down
      ['09:15:20', 25, 1], // back: pushed in this run
      ['09:20:20', 25, 1],
    ];
    for (const [time, towerWait, pushes] of script) {
      harness.upstream().payloads[EPCOT.queueTimesId] = payloadOf(towerWait);
      at(local(time));
      expect((await runRecordWaitsJob({ hoursOf })).parks?.polled).toEqual([EPCOT.slug]);
      expect(push.received, time).toHaveLength(pushes);
    }
    const [received] = push.received;
    if (!received) throw new Error('no push');
    expect(openPush(received, browser).payload).toEqual({
      type: 'ride-reopened',
      ride: { id: TOWER, name: 'Test Track' },
      waitNow: 25,
      url: `${SITE}/parks/${EPCOT.slug}/`,
    });
  });
});
