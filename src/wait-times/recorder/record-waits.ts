import type { ParkEvent } from '../events/event-schemas.ts';
import { blobsHistory } from '../forecast/park-history.ts';
import { parkHoursToday } from '../hours/park-hours.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { localDateOf } from '../local-time.ts';
import { claimPeriod, periodStartOf, sweepClaims } from '../park-answer.ts';
import { PARKS, type Park } from '../parks.ts';
import { fetchSnapshot } from '../queue-times.ts';
import { writeParkRecords } from './park-records.ts';
import { shouldPoll, type UsualDay, usualDayOf } from './poll-window.ts';
import type { RecorderParks } from './recorder-schemas.ts';

export type HoursOf = (park: Park) => Promise<DayHours | null>;

/** Today's published hours (cached for hours, never throws); null when unknown, and the usual day decides. */
const publishedHours: HoursOf = (park) => parkHoursToday(park);

/** Each park's usual day as last learned, by local date: the profile is read at most once a day per instance. */
const usualDays = new Map<string, { date: string; usual: UsualDay | null }>();

async function usualDayFor(park: Park, now: number): Promise<UsualDay | null> {
  const date = localDateOf(now, park.timezone);
  const known = usualDays.get(park.slug);
  if (known?.date === date) return known.usual;
  const usual = usualDayOf(await blobsHistory(park.slug).readProfile());
  usualDays.set(park.slug, { date, usual });
  return usual;
}

type Outcome = { park: string } & (
  | { result: 'polled'; events: ParkEvent[] }
  | { result: 'closed' | 'alreadyRecorded' }
  | { result: 'failed'; error: string }
);

async function recordPark(park: Park, now: number, hoursOf: HoursOf): Promise<Outcome> {
  try {
    const hours = await hoursOf(park).catch(() => null); // unknown hours: the usual day decides
    const usual = hours ? null : await usualDayFor(park, now).catch(() => null);
    if (!shouldPoll(now, hours, usual, park.timezone)) return { park: park.slug, result: 'closed' };
    // One upstream request per park per period, however many runs overlap (docs/consistency.md).
    if (!(await claimPeriod(park.slug, periodStartOf(now)))) return { park: park.slug, result: 'alreadyRecorded' };
    const { context, events } = await writeParkRecords(park, await fetchSnapshot(park), hours);
    // The profile just written is the freshest usual day.
    usualDays.set(park.slug, { date: localDateOf(now, park.timezone), usual: usualDayOf(context.profile) });
    return { park: park.slug, result: 'polled', events };
  } catch (error) {
    return { park: park.slug, result: 'failed', error: (error as Error).message };
  }
}

/**
 * One run of the recorder: every park that is open or near its opening or closing is asked once,
 * all at once, so one slow or failing upstream answer delays nobody else (each is bounded by the
 * client's 8 s). Each fetch is kept by one function, the service's only write of what it learns
 * (park-records.ts). Returns the run's report and the events it added, for the pushes
 * (src/jobs/record-waits-job.ts).
 */
export async function recordOpenParks({
  hoursOf = publishedHours,
}: {
  hoursOf?: HoursOf;
} = {}): Promise<{ report: RecorderParks; events: ParkEvent[] }> {
  const now = Date.now();
  const outcomes = await Promise.all(PARKS.map((park) => recordPark(park, now, hoursOf)));
  await sweepClaims(now).catch((error: Error) =>
    console.warn(`Recorder: could not sweep old claims: ${error.message}`),
  );
  const report: RecorderParks = { polled: [], closed: [], alreadyRecorded: [], failed: [] };
  const events: ParkEvent[] = [];
  for (const outcome of outcomes) {
    if (outcome.result === 'failed') report.failed.push({ park: outcome.park, error: outcome.error });
    else report[outcome.result].push(outcome.park);
    if (outcome.result === 'polled') events.push(...outcome.events);
  }
  return { report, events };
}

/** Forgets the usual days kept in memory (tests start each case cold). */
export function resetRecorderMemory(): void {
  usualDays.clear();
}
