import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type PostedSample, parsePostedWaits } from '../../scripts/backtest/posted-waits.ts';
import { fromWallClock } from '../../src/wait-times/local-time.ts';

/** The park the TouringPlans series come from (Disney's Animal Kingdom) keeps Eastern time. */
export const EASTERN = 'America/New_York';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/touringplans');

/**
 * A real slice of TouringPlans.com posted waits (fixtures/touringplans, 17–24 Feb 2019):
 * AK85 Na'vi River Journey or AK86 Flight of Passage, parsed as the backtest parses it.
 */
export function loadSlice(ride: 'AK85' | 'AK86'): PostedSample[] {
  const text = readFileSync(path.join(DIR, `${ride}-2019-02-17-to-24.csv`), 'utf8');
  return parsePostedWaits(text, (wall) => fromWallClock(wall, EASTERN)).samples;
}

/** Unix ms of an Eastern wall-clock reading such as `2019-02-19 15:10`. */
export function eastern(reading: string): number {
  return fromWallClock(Date.parse(`${reading.replace(' ', 'T')}:00Z`), EASTERN);
}
