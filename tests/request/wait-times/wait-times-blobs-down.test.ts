import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeQueueTimes, startFakeQueueTimes } from '../../../scripts/fake-queue-times.mts';
import { findPark } from '../../../src/wait-times/parks.ts';
import { getWaitTimes, resetWaitTimesMemory } from '../../../src/wait-times/wait-times.ts';

// The core in-process with Blobs pointing at a closed port: waits are still answered, with trend
// and forecast falling back to "no history" (flat, persistence), and the request is not held up.
let upstream: FakeQueueTimes;

beforeAll(async () => {
  upstream = await startFakeQueueTimes();
  process.env.WAIT_TIMES_UPSTREAM_URL = upstream.url;
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({ siteID: 's', token: 't', edgeURL: 'http://127.0.0.1:9', uncachedEdgeURL: 'http://127.0.0.1:9' }),
  ).toString('base64');
  resetWaitTimesMemory();
});
afterAll(async () => {
  delete process.env.WAIT_TIMES_UPSTREAM_URL;
  delete process.env.NETLIFY_BLOBS_CONTEXT;
  await upstream.close();
});

describe('GET /api/wait-times with Blobs unavailable', () => {
  it('answers the live waits with flat trends and persistence forecasts', async () => {
    const park = findPark('epcot');
    if (!park) throw new Error('no epcot');
    const result = await getWaitTimes(park);
    expect(result.fallback).toBe(false);
    expect(result.body.rides.length).toBeGreaterThan(0);
    for (const ride of result.body.rides) {
      expect(ride.trend).toBe('flat');
      expect(ride.forecast).toBe(ride.open ? Math.round(ride.wait / 5) * 5 : null);
    }
  });
});
