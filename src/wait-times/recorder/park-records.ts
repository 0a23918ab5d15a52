import { servedPollOf } from '../accuracy/served-forecasts.ts';
import { archiveServed } from '../accuracy/served-store.ts';
import { readDay, recordDay } from '../day/day-store.ts';
import { blobsHistory, type HistoryContext, recordSample, sampleOf } from '../forecast/park-history.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { basisOf, servedAs, waitTimesBody } from '../live/live-waits.ts';
import type { DayOutages } from '../outages/outage-schemas.ts';
import { recordOutages } from '../outages/outage-store.ts';
import { writeAnswer } from '../park-answer.ts';
import type { ParkSnapshot } from '../park-snapshot-schemas.ts';
import type { Park } from '../parks.ts';
import type { WaitTimes } from '../wait-times-schemas.ts';

/**
 * Everything the service keeps from one fetch of a park, written here and nowhere else: the history
 * sample and the profile of the day's kind (given today's `hours`, which also teach each ride's
 * closing), the day record, the park's answer to GET /api/wait-times with the trend and forecast
 * of this moment, and what was served then, archived to be graded (accuracy/served-store.ts). Where
 * the park's basis (accuracy/forecast-basis.ts) is persistence, the answer's `forecast` is the wait
 * now while the archive keeps the model's own, so the model goes on being graded and can come back.
 * After the day, the day's outages (outages/outage-store.ts), returned with the record they replace
 * so that what changed can be told. The answer is written even when learning, archiving or the
 * outages failed (then with persistence); the failure is thrown after it, so the recorder's status shows it.
 */
export async function writeParkRecords(
  park: Park,
  snapshot: ParkSnapshot,
  hours: DayHours | null,
): Promise<{ answer: WaitTimes; context: HistoryContext; outages: ParkOutages | null }> {
  const failures: string[] = [];
  const failed = (what: string) => (error: Error) => {
    failures.push(`${what}: ${error.message}`);
    return null;
  };
  const [context, outages, basis] = await Promise.all([
    recordSample(blobsHistory(park.slug), sampleOf(snapshot), park.timezone, { hours }).catch(
      failed('could not record the history'),
    ),
    recordDay(park, snapshot)
      .catch(failed('could not record the day'))
      .then((day) =>
        day
          ? recordOutages(park, { day, hours, now: snapshot.fetchedAt, readDay: (date) => readDay(park.slug, date) })
          : null,
      )
      .catch(failed('could not record the outages')),
    basisOf(park),
  ]);
  const learned = context ?? { earlier: null, profile: null };
  const model = waitTimesBody(snapshot, learned.earlier, { profile: learned.profile, timeZone: park.timezone });
  const answer = servedAs(model, basis);
  // The archive keeps the model's forecast: it is graded whichever basis is served.
  const poll = servedPollOf(snapshot, model, { profile: learned.profile, hours, timeZone: park.timezone });
  await Promise.all([
    writeAnswer(park.slug, answer),
    archiveServed(park, poll).catch(failed('could not archive what was served')),
  ]);
  if (failures.length > 0) throw new Error(failures.join('; '));
  return { answer, context: learned, outages };
}

/** The day's outages after a poll, and the record they replaced (null on the day's first poll). */
export type ParkOutages = { previous: DayOutages | null; current: DayOutages };
