import { describe, expect, it } from 'vitest';
import { saveAlert } from '../../../src/alerts/alert-store.ts';
import { runRecordWaitsJob } from '../../../src/jobs/record-waits-job.ts';
import { listKeys } from '../../../src/platform/store.ts';
import { at, useRecorderHarness } from '../../support/recorder-harness.ts';

// The recorder's scheduled job runs the alerts' delivery after every run: here, with no events
// from the recorder yet, the sweep of the alerts expired at their park's closing.

useRecorderHarness();

const HOUR = 3600_000;
const NOW = Date.UTC(2026, 10, 28, 3);
/** Every park closed all day: the run asks the upstream nothing. */
const closed = async () => ({ opensAt: NOW + 48 * HOUR, closesAt: NOW + 49 * HOUR });

const alert = (id: string, expiresAt: number) => ({
  version: 1 as const,
  id,
  park: 'epcot',
  ride: 159,
  on: 'reopened' as const,
  below: null,
  endpoint: 'https://fcm.googleapis.com/fcm/send/made-up',
  keys: { p256dh: 'B'.padEnd(87, 'A'), auth: 'A'.repeat(22) },
  createdAt: NOW - 10 * HOUR,
  expiresAt,
});

describe('the recorder job', () => {
  it('deletes the alerts expired at their closing, endpoint and index, and keeps the live ones', async () => {
    await saveAlert(alert('expiredAAAAAAAAAAAAAAA', NOW - 60_000));
    await saveAlert(alert('liveAAAAAAAAAAAAAAAAAA', NOW + HOUR));
    at(NOW);
    const run = await runRecordWaitsJob({ hoursOf: closed });
    expect(run.outcome).toBe('success');
    const keys = await listKeys('alerts', '');
    expect(keys.filter((key) => key.includes('expired'))).toEqual([]);
    expect(keys.filter((key) => key.includes('live'))).toHaveLength(2);
  });
});
