import { MINUTES_PER_HOUR } from '../platform/time-units.ts';
import type { RideDown } from '../wait-times/day/history-schemas.ts';

// A ride down in a line, from `down` in GET /api/wait-times/history (docs/wait-history.md): "Down
// 12 min · about 55 % back within 30 min, from 412 outages". Shared by the widget's rows and its
// tests; no DOM here.

/** The horizon the line names: half an hour, about what a visitor weighs against walking on. */
const HORIZON = '30';

/** "12 min", "1 h", "1 h 5 min". */
export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / MINUTES_PER_HOUR);
  const rest = minutes % MINUTES_PER_HOUR;
  if (hours === 0) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/**
 * The line: how long the ride has been down, then its chance of being back within 30 minutes and
 * what that rests on ("across all parks" when pooled), or plainly that there are no odds: never a
 * number that rests on nothing.
 */
export function downText(down: RideDown): string {
  const since = `Down ${durationText(down.minutes)}`;
  const chance = down.reopenWithin?.[HORIZON];
  if (chance === undefined) {
    // A bucket without odds had too few outages; no bucket at all means no odds were read.
    return down.scope === null
      ? `${since} · no odds of reopening yet`
      : `${since} · too few outages recorded to give odds`;
  }
  const pooled = down.scope === 'all parks' ? ' across all parks' : '';
  const count = down.outages.toLocaleString('en-US');
  return `${since} · about ${Math.round(chance * 100)} % back within ${HORIZON} min, from ${count} outages${pooled}`;
}

// Saved and received bodies are checked as far as they are read (no zod in the browser).
const isNumber = (value: unknown): value is number => Number.isFinite(value);

/** A ride's `down` when it is one the line can read, else null (none, or a body from before it existed). */
export function downOf(ride: { down?: unknown } | undefined): RideDown | null {
  const down = ride?.down as Partial<RideDown> | null | undefined;
  if (!down || !isNumber(down.minutes) || !isNumber(down.since) || !isNumber(down.outages)) return null;
  const odds = down.reopenWithin;
  if (odds !== null && !isNumber(odds?.[HORIZON])) return null;
  const scope = down.scope === 'park' || down.scope === 'all parks' ? down.scope : null;
  return { since: down.since, minutes: down.minutes, reopenWithin: odds, outages: down.outages, scope };
}
