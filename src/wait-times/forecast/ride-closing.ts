import { HALF_HOUR_MS } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import type { HistorySample } from '../park-snapshot-schemas.ts';
import { CLOSING_STEPS, type RideProfile, type WaitProfile } from './wait-profile-schemas.ts';

/**
 * Each ride's own end of the day against the park's: some close before the park does (a safari at
 * dusk, a ride left out of extra evening hours). Learned once a day from the first sample at or
 * after the park's published closing: how long before it each ride was last seen open. The outlook
 * then leaves out the half hours by which a ride has often closed (docs/research/forecasting-model.md).
 */

/** Weight of each day in a ride's early-closing shares (about the last ten days count). */
const CLOSING_WEIGHT = 0.1;
/** A half hour by which the ride closed early on more than this share of days gets no outlook. */
export const CLOSED_EARLY_LIMIT = 0.1;

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The profile after `sample`: each ride open in it marked as seen open then, and, at the first
 * sample at or after the day's closing (`hours`, once per closing), each ride open that day
 * learns how many half hours before the closing it was last open. Returns a new profile.
 */
export function learnClosings(profile: WaitProfile, sample: HistorySample, hours: DayHours | null): WaitProfile {
  const rides: Record<string, RideProfile> = { ...profile.rides };
  for (const [id, wait] of Object.entries(sample.waits)) {
    const ride = rides[id];
    if (ride && wait !== null) rides[id] = { ...ride, lastOpen: Math.max(ride.lastOpen ?? 0, sample.at) };
  }
  if (!hours || sample.at < hours.closesAt || profile.closingLearned === hours.closesAt) return { ...profile, rides };
  for (const [id, ride] of Object.entries(rides)) {
    const { lastOpen } = ride;
    if (lastOpen === undefined || lastOpen < hours.opensAt) continue; // not open today
    const early = Math.floor((hours.closesAt - lastOpen) / HALF_HOUR_MS);
    const shares = ride.closedEarly ?? Array<number>(CLOSING_STEPS).fill(0);
    rides[id] = {
      ...ride,
      closedEarly: shares.map((share, step) => round(share + CLOSING_WEIGHT * (Number(early > step) - share))),
    };
  }
  return { ...profile, closingLearned: hours.closesAt, rides };
}

/**
 * How often the ride had closed for the day by `at`, on the days learned, against the park's
 * closing `closesAt` (0 when nothing is learned): the share for the whole half hours between them.
 */
export function closedEarlyShare(profile: WaitProfile | null, rideId: string, at: number, closesAt: number): number {
  const shares = profile?.rides[rideId]?.closedEarly;
  if (!shares) return 0;
  const step = Math.min(CLOSING_STEPS, Math.max(1, Math.floor((closesAt - at) / HALF_HOUR_MS))) - 1;
  return shares[step] ?? 0;
}
