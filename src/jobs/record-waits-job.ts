import { deliverPushes } from '../alerts/deliver-pushes.ts';
import { type HoursOf, recordOpenParks } from '../wait-times/recorder/record-waits.ts';
import type { RecorderParks } from '../wait-times/recorder/recorder-schemas.ts';
import { runJob } from './job-runs.ts';
import type { StoredRun } from './jobs-schemas.ts';

/** The run's sentence: counts, then each failing park with its reason. */
export function recorderMessage({ polled, closed, alreadyRecorded, failed }: RecorderParks): string {
  const parts = [`polled ${polled.length}`, `closed ${closed.length}`, `already recorded ${alreadyRecorded.length}`];
  parts.push(
    `failed ${failed.length}${failed.length ? `: ${failed.map((f) => `${f.park} (${f.error})`).join('; ')}` : ''}`,
  );
  return `${parts.join(', ')} of the parks`;
}

/**
 * The wait-times recorder as a job run (src/wait-times/recorder/record-waits.ts): a failure when any
 * park failed, so the status shows it; the record keeps which parks did what.
 */
export function runRecordWaitsJob(options: { hoursOf?: HoursOf } = {}): Promise<StoredRun> {
  return runJob('record-waits', async () => {
    const { report: parks, events } = await recordOpenParks(options);
    // Push alerts (docs/alerts-push.md), within the run that saw the change; this also deletes the
    // alerts expired at their park's closing. Never throws.
    await deliverPushes(events);
    return { outcome: parks.failed.length > 0 ? 'failure' : 'success', message: recorderMessage(parks), parks };
  });
}
