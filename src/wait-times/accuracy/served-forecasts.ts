import { MINUTE_MS } from '../../platform/time-units.ts';
import type { z } from '../../platform/zod-mini.ts';
import {
  expectedWait,
  type ForecastContext,
  outlookTimesOf,
  parkRatioOf,
  rideOutlookOf,
  toStep,
} from '../forecast/outlook.ts';
import { sampleOf } from '../forecast/park-history.ts';
import { bucketOf, usualWaitOf } from '../forecast/wait-profile.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { dayBoundsOf, localDateOf, minuteOfDay } from '../local-time.ts';
import type { ParkSnapshot } from '../park-snapshot-schemas.ts';
import { byName } from '../parks.ts';
import type { WaitTimes } from '../wait-times-schemas.ts';
import type { StoredServedSchema } from './accuracy-schemas.ts';

export type StoredServed = z.output<typeof StoredServedSchema>;
/** One poll's served forecasts by ride id: only rides open then. */
export type ServedPoll = { at: number; rides: Map<string, { name: string; served: StoredServed }> };

/**
 * What the service served at one poll, for every ride open in the snapshot: the wait now, the
 * model's 30-minute `forecast` as the model's `answer` has it (what is served unless the park's
 * basis is persistence: then the model's forecast is kept to be graded), the outlook at 60 and 120 minutes and the best time as
 * GET /api/wait-times/history computes them (day/history.ts; the backtest's horizons,
 * scripts/backtest/replay.ts), and the usual wait at each target half hour. Pure.
 */
export function servedPollOf(
  snapshot: ParkSnapshot,
  answer: WaitTimes,
  { profile, hours, timeZone }: { profile: WaitProfile | null; hours: DayHours | null; timeZone: string },
): ServedPoll {
  const at = snapshot.fetchedAt;
  const latest = Object.entries(sampleOf(snapshot).waits).map(([id, wait]) => ({ id, wait }));
  const moment = { profile, timeZone, at };
  const context: ForecastContext = { ...moment, hours, parkRatio: parkRatioOf(moment, latest) };
  const outlookTimes = outlookTimesOf(context, dayBoundsOf(localDateOf(at, timeZone), timeZone).endsAt);
  // The answer lists the snapshot's rides sorted by name (a stable sort, live/live-waits.ts): the same sort pairs them.
  const ordered = snapshot.rides.toSorted(byName);
  const rides = new Map<string, { name: string; served: StoredServed }>();
  ordered.forEach((ride, index) => {
    const served = answer.rides[index];
    if (!ride.open || served?.name !== ride.name || served.forecast === null) return;
    const id = String(ride.id);
    const { wait } = ride;
    const [to60, to120] = [60, 120].map((minutes) => at + minutes * MINUTE_MS) as [number, number];
    // A learned level has a decimal (wait-profile.ts); the archive keeps whole minutes, as the crowd level shows them.
    const usualAt = (to: number) => {
      const usual = usualWaitOf(profile, id, bucketOf(minuteOfDay(to, timeZone)));
      return usual === null ? null : Math.round(usual);
    };
    const { bestTime } = rideOutlookOf(context, { id, wait }, outlookTimes);
    rides.set(id, {
      name: ride.name,
      served: [
        wait,
        served.forecast,
        toStep(expectedWait(context, { id, wait }, to60)),
        toStep(expectedWait(context, { id, wait }, to120)),
        usualAt(at + 30 * MINUTE_MS),
        usualAt(to60),
        usualAt(to120),
        bestTime?.at ?? null,
        bestTime?.wait ?? null,
      ],
    });
  });
  return { at, rides };
}
