/**
 * The example of GET /api/wait-times/history in the OpenAPI document, produced by the real code
 * on real data: a week of TouringPlans.com posted waits for two Animal Kingdom rides
 * (fixtures/touringplans, credit in CREDIT.md), sampled every 5 minutes as the service samples.
 * The forecaster learns the usual day from the first six days through the same `recordSample`
 * the service runs; the seventh day, up to 10:00, is the day shown.
 */
import posted from '../../../fixtures/touringplans/AK85-AK86-posted-2019-02-17-to-24.json' with { type: 'json' };
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import type { HistorySample } from '../park-snapshot-schemas.ts';
import { findPark } from '../parks.ts';
import { memoryHistory, recordSample } from '../wait-history.ts';
import { waitHistoryBody } from './history.ts';
import { type WaitHistory, WaitHistorySchema } from './history-schemas.ts';
import { addSamples, emptyDay, localDateOf, SLOT_MS } from './park-day.ts';

const RIDES = { AK85: "Na'vi River Journey", AK86: 'Avatar Flight of Passage' } as const;
/** A posted wait is still the ride's wait this long after it was posted (the data has one about every 7 minutes). */
const STILL_POSTED_MS = 15 * 60_000;
const SHOWN_DAY = '2019-02-24';
const SHOWN_UNTIL = Date.parse('2019-02-24T15:00:00Z'); // 10:00 Eastern

/** The series as the service would have sampled it: every 5 minutes, the last posted wait of each ride. */
function sampled(): HistorySample[] {
  const series = posted as Record<keyof typeof RIDES, [number, number | null][]>;
  const all = Object.values(series).flat();
  const first = Math.ceil(Math.min(...all.map(([at]) => at)) / SLOT_MS) * SLOT_MS;
  const last = Math.max(...all.map(([at]) => at));
  const cursor = { AK85: 0, AK86: 0 };
  const samples: HistorySample[] = [];
  for (let at = first; at <= last; at += SLOT_MS) {
    const waits: Record<string, number | null> = {};
    for (const ride of Object.keys(RIDES) as (keyof typeof RIDES)[]) {
      const rows = series[ride];
      while ((rows[cursor[ride] + 1]?.[0] ?? Number.POSITIVE_INFINITY) <= at) cursor[ride] += 1;
      const row = rows[cursor[ride]];
      if (row && row[0] <= at && at - row[0] <= STILL_POSTED_MS) waits[ride] = row[1];
    }
    if (Object.keys(waits).length > 0) samples.push({ at, waits });
  }
  return samples;
}

/** Runs once per process: history-openapi.ts awaits it as its module loads. */
export async function waitHistoryExample(): Promise<WaitHistory> {
  const park = findPark('animal-kingdom');
  if (!park) throw new Error('animal-kingdom is missing from the park table');
  const history = memoryHistory();
  let profile: WaitProfile | null = null;
  let day = emptyDay(SHOWN_DAY);
  for (const sample of sampled()) {
    if (sample.at > SHOWN_UNTIL) break;
    if (localDateOf(sample.at, park.timezone) === SHOWN_DAY) day = addSamples(day, [sample], RIDES);
    else profile = (await recordSample(history, sample, park.timezone)).profile;
  }
  return WaitHistorySchema.parse(waitHistoryBody(park, day, profile, SHOWN_UNTIL));
}
