import { MINUTES_PER_HOUR } from '../../platform/time-units.ts';
import type { DayHours } from '../hours/park-hours-schemas.ts';
import { minuteOfDay } from '../local-time.ts';

/**
 * The kinds of park day that keep a forecaster profile of their own. A day the park closes by
 * 19:00 (a ticketed party's or Halloween Horror Nights' evening after a day closing at 18:00, a
 * short winter day) has another shape than its usual day: the crowd builds less and leaves hours
 * earlier, and waits learned on long days overshoot it. Measured: docs/research/forecasting-model.md, "Kinds of day".
 */
export type DayKind = 'usual' | 'early-closing';

/** A closing from 04:00 to 19:00 park time ends the day early; a later one (or after midnight) does not. */
const EARLY_CLOSING_MINUTES = { from: 4 * MINUTES_PER_HOUR, to: 19 * MINUTES_PER_HOUR } as const;

/** The kind of the day these published hours make; with the hours unknown, the usual one. */
export function dayKindOf(hours: DayHours | null, timeZone: string): DayKind {
  if (hours === null) return 'usual';
  const closing = minuteOfDay(hours.closesAt, timeZone);
  return closing >= EARLY_CLOSING_MINUTES.from && closing <= EARLY_CLOSING_MINUTES.to ? 'early-closing' : 'usual';
}
