import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import type { Park } from '../parks.ts';
import { crowdLevelOf, usualWaits } from './crowd-level.ts';
import type { DayRecord, WaitHistory } from './history-schemas.ts';
import { dayBoundsOf, localDateOf } from './park-day.ts';

/**
 * The body of GET /api/wait-times/history for the park's local day at `now`: the day's samples
 * (none when `day` is another date or missing), each ride's usual day from the profile, and the
 * crowd level. Pure, so the OpenAPI example is this function run on real data.
 */
export function waitHistoryBody(
  park: Pick<Park, 'slug' | 'timezone'>,
  day: DayRecord | null,
  profile: WaitProfile | null,
  now: number,
): WaitHistory {
  const date = localDateOf(now, park.timezone);
  const { startsAt, endsAt } = dayBoundsOf(date, park.timezone);
  const today = day?.date === date ? day : null;
  const times = today?.times ?? [];
  const rides = Object.entries(today?.rides ?? {})
    .map(([id, ride]) => ({ name: ride.name, waits: ride.waits, usual: usualWaits(profile, id) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    park: park.slug,
    date,
    timeZone: park.timezone,
    dayStartsAt: startsAt,
    dayEndsAt: endsAt,
    updatedAt: times.at(-1) ?? null,
    source: 'queue-times.com',
    times,
    crowd: crowdLevelOf(times, rides, park.timezone),
    rides,
  };
}
