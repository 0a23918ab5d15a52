import { HALF_HOUR_MINUTES, MINUTE_MS, MINUTES_PER_DAY } from '../../platform/time-units.ts';
import { usualWaitOf } from '../forecast/wait-profile.ts';
import { BUCKETS_PER_DAY, type WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { isInRecordingWindow, RECORDING_MARGIN_MS } from '../hours/park-hours.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { minuteOfDay } from '../local-time.ts';

/** The learned usual day: park-local minutes from the first half hour any ride is usually open to the end of the last. */
export interface UsualDay {
  opensAtMinute: number;
  closesAtMinute: number;
}

/** The usual day a profile has learned; null while no half hour of any ride is usual yet. */
export function usualDayOf(profile: WaitProfile | null): UsualDay | null {
  const open: number[] = [];
  for (let bucket = 0; bucket < BUCKETS_PER_DAY; bucket++) {
    if (Object.keys(profile?.rides ?? {}).some((id) => usualWaitOf(profile, id, bucket) !== null)) open.push(bucket);
  }
  const [first, last] = [open[0], open.at(-1)];
  if (first === undefined || last === undefined) return null;
  return { opensAtMinute: first * HALF_HOUR_MINUTES, closesAtMinute: (last + 1) * HALF_HOUR_MINUTES };
}

/**
 * Whether the recorder asks the upstream for a park now: by today's hours when known, else by the
 * learned usual day (in the park's zone), each widened by `RECORDING_MARGIN_MS`; knowing neither, yes.
 */
export function shouldPoll(now: number, hours: DayHours | null, usual: UsualDay | null, timeZone: string) {
  if (hours) return isInRecordingWindow(hours, now) === true;
  if (!usual) return true;
  const minute = minuteOfDay(now, timeZone);
  const margin = RECORDING_MARGIN_MS / MINUTE_MS;
  // The same minute a day earlier and later too: the margin may reach across midnight.
  return [minute - MINUTES_PER_DAY, minute, minute + MINUTES_PER_DAY].some(
    (at) => at >= usual.opensAtMinute - margin && at <= usual.closesAtMinute + margin,
  );
}
