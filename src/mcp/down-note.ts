import type { RideDown } from '../wait-times/day/history-schemas.ts';

// A ride down in words for the MCP tools' text (`when_to_ride`, `get_park_day`): the same `down` as
// GET /api/wait-times/history, said so an agent repeats it as odds, never as a promise.

const percent = (chance: number) => `${Math.round(chance * 100)} %`;
const whose = (scope: RideDown['scope']) => (scope === 'all parks' ? 'across all parks' : 'at this park');

/**
 * "It has been down for 25 min (since 14:05 park time). Of 412 recorded outages at this park that
 * lasted this long, about 35 % ended within 15 more minutes, 55 % within 30 and 70 % within 60: a
 * chance, not a promise." `clock` says a time in park time.
 */
export function downNote(down: RideDown, clock: (at: number) => string): string {
  const since = `It has been down for ${down.minutes} min (since ${clock(down.since)} park time).`;
  const odds = down.reopenWithin;
  if (odds === null) return `${since} Too few outages are recorded to give odds of when it reopens.`;
  const count = down.outages.toLocaleString('en-US');
  return `${since} Of ${count} recorded outages ${whose(down.scope)} that lasted this long, about ${percent(odds['15'])} ended within 15 more minutes, ${percent(odds['30'])} within 30 and ${percent(odds['60'])} within 60: a chance, not a promise.`;
}

/** "Test Track (25 min, about 55 % back within 30 min)" or "… (75 min, no odds)", for a list of rides down. */
export function downBrief(name: string, down: RideDown): string {
  const odds = down.reopenWithin === null ? 'no odds' : `about ${percent(down.reopenWithin['30'])} back within 30 min`;
  return `${name} (${down.minutes} min, ${odds})`;
}
