/**
 * The example of GET /api/wait-times/history in the OpenAPI document, produced by the real code
 * on real data: a week of TouringPlans.com posted waits for two Animal Kingdom rides
 * (fixtures/touringplans, credit in CREDIT.md), sampled every 5 minutes as the service samples
 * (`gridSamples`, as the backtest samples).
 * The forecaster learns the usual day from the first six days through the same `recordSample`
 * the service runs; the seventh day, up to 10:00, is the day shown, with the hours Walt Disney
 * World published for it (TouringPlans.com park-hours data: 09:00–20:00, no extra hours) written
 * as ThemeParks.wiki's schedule row and read by the same code as a live schedule.
 */
import posted from '../../../fixtures/touringplans/AK85-AK86-posted-2019-02-17-to-24.json' with { type: 'json' };
import { gridSamples, memoryHistory, recordSample } from '../forecast/park-history.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { currentDayOf } from '../hours/park-hours.ts';
import { scheduleRowsOf } from '../hours/themeparks-wiki.ts';
import { localDateOf } from '../local-time.ts';
import { findPark } from '../parks.ts';
import { waitHistoryBody } from './history.ts';
import { type WaitHistory, WaitHistorySchema } from './history-schemas.ts';
import { addSamples, emptyDay } from './park-day.ts';

const RIDES = { AK85: "Na'vi River Journey", AK86: 'Avatar Flight of Passage' } as const;
const SHOWN_DAY = '2019-02-24';
const SHOWN_UNTIL = Date.parse('2019-02-24T15:00:00Z'); // 10:00 Eastern
const SHOWN_HOURS = {
  schedule: [
    {
      date: SHOWN_DAY,
      type: 'OPERATING',
      openingTime: '2019-02-24T09:00:00-05:00',
      closingTime: '2019-02-24T20:00:00-05:00',
    },
  ],
};

/** Runs the forecaster over a week of samples: for the whole description only (openapi-document.ts), built with the site. */
export async function waitHistoryExample(): Promise<WaitHistory> {
  const park = findPark('animal-kingdom');
  if (!park) throw new Error('animal-kingdom is missing from the park table');
  const history = memoryHistory();
  let profile: WaitProfile | null = null;
  let day = emptyDay(SHOWN_DAY);
  const rides = Object.entries(posted as Record<keyof typeof RIDES, [number, number | null][]>);
  const samples = gridSamples(rides.map(([id, rows]) => ({ id, samples: rows.map(([at, wait]) => ({ at, wait })) })));
  for (const sample of samples) {
    if (sample.at > SHOWN_UNTIL) break;
    if (localDateOf(sample.at, park.timezone) === SHOWN_DAY) day = addSamples(day, [sample], RIDES);
    else profile = (await recordSample(history, sample, park.timezone)).profile;
  }
  const hours = currentDayOf(scheduleRowsOf(SHOWN_HOURS, 'example'), SHOWN_UNTIL, park.timezone);
  return WaitHistorySchema.parse(waitHistoryBody(park, day, { profile, hours }, SHOWN_UNTIL));
}
