/**
 * The example of GET /api/wait-times/history in the OpenAPI document, produced by the real code
 * on real data: a week of TouringPlans.com posted waits for two Animal Kingdom rides
 * (fixtures/touringplans, credit in CREDIT.md), sampled every 5 minutes as the service samples
 * (`gridSamples`, as the backtest samples).
 * The forecaster learns the usual day from the first six days through the same `recordSample`
 * the service runs; the seventh day, up to 15:10, is the day shown, with the hours Walt Disney
 * World published for it (TouringPlans.com park-hours data: 09:00–20:00, no extra hours) written
 * as ThemeParks.wiki's schedule row and read by the same code as a live schedule. Na'vi River
 * Journey was down that afternoon (posted closed from 14:45, open again at 15:30): its outage is
 * found by the recorder's rules and served with an ILLUSTRATIVE reopen table (`ILLUSTRATIVE_ODDS`).
 */
import posted from '../../../fixtures/touringplans/AK85-AK86-posted-2019-02-17-to-24.json' with { type: 'json' };
import { gridSamples, memoryHistory, recordSample } from '../forecast/park-history.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { currentDayOf } from '../hours/park-hours.ts';
import { scheduleRowsOf } from '../hours/themeparks-wiki.ts';
import { dayBoundsOf, localDateOf } from '../local-time.ts';
import { outagesOfDay } from '../outages/outage-rules.ts';
import type { DayOutages, ReopenTable } from '../outages/outage-schemas.ts';
import { findPark } from '../parks.ts';
import { waitHistoryBody } from './history.ts';
import { type WaitHistory, WaitHistorySchema } from './history-schemas.ts';
import { addSamples, emptyDay } from './park-day.ts';

const RIDES = { AK85: "Na'vi River Journey", AK86: 'Avatar Flight of Passage' } as const;
const SHOWN_DAY = '2019-02-24';
const SHOWN_UNTIL = Date.parse('2019-02-24T20:10:00Z'); // 15:10 Eastern
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

const odds = (within15: number, within30: number, within60: number) => ({
  '15': within15,
  '30': within30,
  '60': within60,
});

/**
 * ILLUSTRATIVE reopen odds, not measured here: shaped after the pooled curve park.fan published
 * (54 % back within 30 minutes after 5 minutes down, 37 % after 30, 18 % after 120), with made-up
 * counts. Two rides' week holds too few outages for odds of its own; the recorder builds the real
 * table from every park's recorded outages (docs/outages.md).
 */
const ILLUSTRATIVE_ODDS: ReopenTable = {
  version: 1,
  builtAt: Date.parse('2019-02-24T05:00:00Z'),
  buckets: [
    { elapsed: 5, reopenWithin: odds(0.35, 0.55, 0.7), outages: 412, scope: 'park' },
    { elapsed: 15, reopenWithin: odds(0.25, 0.45, 0.6), outages: 268, scope: 'park' },
    { elapsed: 30, reopenWithin: odds(0.2, 0.35, 0.55), outages: 1874, scope: 'all parks' },
    { elapsed: 60, reopenWithin: odds(0.15, 0.3, 0.45), outages: 1130, scope: 'all parks' },
    { elapsed: 120, reopenWithin: odds(0.1, 0.2, 0.3), outages: 512, scope: 'all parks' },
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
  // The day's outages by the recorder's own rules (outage-rules.ts), as it records them after a poll.
  const context = {
    timeZone: park.timezone,
    hours,
    dayEndsAt: dayBoundsOf(SHOWN_DAY, park.timezone).endsAt,
    now: SHOWN_UNTIL,
  };
  const outages: DayOutages = { version: 1, date: SHOWN_DAY, updatedAt: SHOWN_UNTIL, ...outagesOfDay(day, context) };
  const basis = { profile, hours, outages, reopen: ILLUSTRATIVE_ODDS };
  return WaitHistorySchema.parse(waitHistoryBody(park, day, basis, SHOWN_UNTIL));
}
