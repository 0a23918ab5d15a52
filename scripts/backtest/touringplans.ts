import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gridSamples } from '../../src/wait-times/forecast/park-history.ts';
import { fromWallClock } from '../../src/wait-times/local-time.ts';
import type { WdwPark } from './park-hours.ts';
import { parsePostedWaits, splitByRide } from './posted-waits.ts';
import type { ParkSeries } from './replay.ts';

/**
 * The TouringPlans.com data the backtest reads by default (../shared/data/touringplans/): which
 * ride each file holds and in which Walt Disney World park, and the parks' published hours.
 */

export const SHIPPED_DIR = path.resolve(import.meta.dirname, '../../../shared/data/touringplans');
export const SHIPPED_HOURS = path.join(SHIPPED_DIR, 'park-hours/touringplans_metadata.csv');
/** Every Walt Disney World park keeps Eastern time. */
export const WDW_TIME_ZONE = 'America/New_York';
export const PARK_NAMES: Readonly<Record<WdwPark, string>> = {
  MK: 'Magic Kingdom',
  EP: 'EPCOT',
  HS: 'Hollywood Studios',
  AK: 'Animal Kingdom',
};

export interface ShippedSeries {
  /** Path below SHIPPED_DIR. */
  file: string;
  ride: string;
  park: WdwPark;
}

/** AK85/AK86: May 2017 to Feb 2019 (`SPOSTMIN`); 2018/: the year 2018 (`wait_time(posted)`). */
export const SHIPPED_SERIES: readonly ShippedSeries[] = [
  { file: 'AK85.csv', ride: "Na'vi River Journey (AK85)", park: 'AK' },
  { file: 'AK86.csv', ride: 'Avatar Flight of Passage (AK86)', park: 'AK' },
  { file: '2018/dinosaur.csv', ride: 'DINOSAUR', park: 'AK' },
  { file: '2018/expedition_everest.csv', ride: 'Expedition Everest', park: 'AK' },
  { file: '2018/kilimanjaro_safaris.csv', ride: 'Kilimanjaro Safaris', park: 'AK' },
  { file: '2018/splash_mountain.csv', ride: 'Splash Mountain', park: 'MK' },
  { file: '2018/spaceship_earth.csv', ride: 'Spaceship Earth', park: 'EP' },
  { file: '2018/alien_saucers.csv', ride: 'Alien Swirling Saucers', park: 'HS' },
  { file: '2018/rock_n_rollercoaster.csv', ride: "Rock 'n' Roller Coaster", park: 'HS' },
  { file: '2018/toy_story_mania.csv', ride: 'Toy Story Mania!', park: 'HS' },
];

/** The ride a shipped file holds (by its path's last two parts), for files named on the command line. */
export function shippedSeriesOf(file: string): ShippedSeries | undefined {
  const tail = path.resolve(file).split(path.sep).slice(-2).join('/');
  return SHIPPED_SERIES.find((series) => tail === series.file || tail.endsWith(`/${series.file}`));
}

/**
 * One park of TouringPlans CSV files, sampled every 5 minutes as the service would (`gridSamples`),
 * and the rows each file could not read.
 */
export function parkOfPostedWaits(
  files: readonly { path: string; ride: string }[],
  timeZone: string,
): { park: ParkSeries; skipped: { path: string; rows: number }[] } {
  // A long CSV (GET /api/wait-times/days) holds many rides: each ride is read as a file of its own,
  // its rows from every file given (one file per day) together.
  const texts: { path: string; ride: string; text: string }[] = [];
  const byRide = new Map<string, { path: string; ride: string; text: string }>();
  for (const file of files) {
    const text = readFileSync(file.path, 'utf8');
    const rides = splitByRide(text);
    if (!rides) texts.push({ ...file, text });
    for (const ride of rides ?? []) {
      const name = `${ride.name} (${ride.id})`;
      const held = byRide.get(ride.id);
      const rows = ride.text.slice(ride.text.indexOf('\n') + 1);
      if (held) held.text += `\n${rows}`;
      else {
        const series = { path: file.path, ride: name, text: ride.text };
        byRide.set(ride.id, series);
        texts.push(series);
      }
    }
  }
  const read = texts.map((file) => {
    const { samples, skipped } = parsePostedWaits(file.text, (wall) => fromWallClock(wall, timeZone));
    return { ride: { id: file.ride, name: file.ride, samples, observations: samples }, skipped };
  });
  const rides = read.map(({ ride }) => ride);
  const skipped = read.flatMap(({ skipped: rows }, index) =>
    rows > 0 ? [{ path: texts[index]?.path ?? '', rows }] : [],
  );
  return { park: { rides, samples: gridSamples(rides) }, skipped };
}
