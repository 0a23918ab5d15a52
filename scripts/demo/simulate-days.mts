import { MINUTE_MS } from '../../src/platform/time-units.ts';
import { RECORDING_MARGIN_MS } from '../../src/wait-times/hours/park-hours.ts';
import type { DayHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { dayBoundsOf, shiftDate } from '../../src/wait-times/local-time.ts';
import type { ParkSnapshot } from '../../src/wait-times/park-snapshot-schemas.ts';
import type { Park } from '../../src/wait-times/parks.ts';
import { writeParkRecords } from '../../src/wait-times/recorder/park-records.ts';

/**
 * Past park-days as the recorder would have left them, written by the recorder's own write
 * (`writeParkRecords`, recorder/park-records.ts) poll after poll at past times: history, profiles,
 * day records, the answer and the archive of what was served, for the grading job's module to
 * grade (seed-demo.mts). For `npm run demo`; never part of the service. The snapshots are whatever
 * `snapshotAt` says (the demo: recorded payloads moved along a day shape, SYNTHETIC waits); the
 * clock is not moved: every time the records keep comes from the snapshot.
 */

/** The recorder's period: one poll every 5 minutes. */
export const POLL_MS = 5 * MINUTE_MS;

export interface SimulatedPark {
  park: Park;
  /** The snapshot the upstream would have answered at `at`. */
  snapshotAt: (at: number) => ParkSnapshot;
  /** The park's published hours on a local date (null: unknown, then nothing is polled that day). */
  hoursOn: (date: string) => DayHours | null;
}

/** The poll times of a local date: every 5 minutes of the recording window (hours ± 30 min), before `until`. */
export function pollTimesOf(hours: DayHours | null, date: string, timeZone: string, until: number): number[] {
  if (!hours) return [];
  const { startsAt, endsAt } = dayBoundsOf(date, timeZone);
  const from = Math.max(startsAt, Math.ceil((hours.opensAt - RECORDING_MARGIN_MS) / POLL_MS) * POLL_MS);
  const to = Math.min(endsAt, hours.closesAt + RECORDING_MARGIN_MS + 1, until);
  const times: number[] = [];
  for (let at = from; at < to; at += POLL_MS) times.push(at);
  return times;
}

/**
 * Polls `park` at every period of `days` local dates ending with `lastDate` (each in its recording
 * window, none at or before `after` nor at or after `until`), in time order, as the recorder does.
 * Returns the polls written.
 */
export async function simulateDays(
  { park, snapshotAt, hoursOn }: SimulatedPark,
  { lastDate, days, until, after = 0 }: { lastDate: string; days: number; until: number; after?: number },
): Promise<number> {
  let polls = 0;
  for (let back = days - 1; back >= 0; back--) {
    const date = shiftDate(lastDate, -back);
    const hours = hoursOn(date);
    for (const at of pollTimesOf(hours, date, park.timezone, until).filter((time) => time > after)) {
      await writeParkRecords(park, snapshotAt(at), hours);
      polls += 1;
    }
  }
  return polls;
}
