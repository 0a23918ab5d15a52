import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eventsOf, newestFirst } from '../../src/wait-times/events/event-rules.ts';
import type { BandSides, ParkEvent } from '../../src/wait-times/events/event-schemas.ts';
import { fromWallClock } from '../../src/wait-times/local-time.ts';
import { parsePostedWaits } from './posted-waits.ts';

/**
 * `node scripts/backtest/events-cost.mts [folder]`: the wait-band rules (event-rules.ts) over real posted
 * waits, TouringPlans.com's series in ../shared/data/touringplans (credit: its CREDIT.md), one ride
 * at a time as the recorder would see it: band events per ride-day, the writes they cost (a poll
 * that adds an event or moves a ride across a band) and the bytes of an event as stored
 * (docs/alerts.md, "Costs"). Down samples are closed rides; the outage rules are not applied here.
 */
const folder = process.argv[2] ?? path.resolve(import.meta.dirname, '../../../shared/data/touringplans');
const files = [
  ...readdirSync(folder).filter((name) => name.endsWith('.csv')),
  ...readdirSync(path.join(folder, '2018'))
    .filter((name) => name.endsWith('.csv'))
    .map((name) => path.join('2018', name)),
];
const park = { slug: 'animal-kingdom', timezone: 'America/New_York' };

const perDay: number[] = [];
const writesPerDay: number[] = [];
const pollsPerDay: number[] = [];
let bytes = 0;
let counted = 0;
for (const file of files) {
  const text = readFileSync(path.join(folder, file), 'utf8');
  const { samples } = parsePostedWaits(text, (wall) => fromWallClock(wall, park.timezone));
  const days = Map.groupBy(samples, (sample) => sample.day);
  for (const day of days.values()) {
    let recent: ParkEvent[] = [];
    let sides: BandSides | null = null;
    let [events, writes] = [0, 0];
    for (const sample of day) {
      const ride = { id: 1, name: 'Ride', wait: sample.wait ?? 0, open: sample.wait !== null, forecast: sample.wait };
      const result = eventsOf({
        park,
        at: sample.at,
        rides: [ride],
        hours: null,
        outages: null,
        reopen: null,
        recent,
        sides,
      });
      const added = result.events.filter((event) => event.type === 'wait-below' || event.type === 'wait-above');
      if (added.length > 0 || JSON.stringify(result.sides.rides) !== JSON.stringify(sides?.rides ?? {})) writes++;
      for (const event of added) {
        bytes += JSON.stringify({ ...event, ride: { id: 12345, name: 'Avatar Flight of Passage' } }).length;
        counted++;
      }
      events += added.length;
      recent = [...result.events, ...recent].sort(newestFirst);
      sides = result.sides;
    }
    perDay.push(events);
    writesPerDay.push(writes);
    pollsPerDay.push(day.length);
  }
}
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const quantile = (values: number[], q: number) => values.toSorted((a, b) => a - b)[Math.floor(q * (values.length - 1))];
console.info(
  `Events, ${files.length} rides, ${perDay.length} ride-days: band events per ride-day mean ${mean(perDay).toFixed(1)}, p90 ${quantile(perDay, 0.9)}, max ${Math.max(...perDay)}; writes per ride-day mean ${mean(writesPerDay).toFixed(1)} of ${mean(pollsPerDay).toFixed(0)} samples; ${Math.round(bytes / Math.max(1, counted))} bytes per event`,
);
