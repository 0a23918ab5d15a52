import posted from '../../../fixtures/touringplans/AK85-AK86-posted-2019-02-17-to-24.json' with { type: 'json' };
import { HttpError } from '../../platform/errors.ts';
import {
  errorResponseObject,
  type JsonObject,
  PUBLIC_HEADERS,
  publicGet,
  thrownBy,
} from '../../platform/openapi-vocabulary.ts';
import { addSamples, emptyDay } from '../day/park-day.ts';
import { gridSamples } from '../forecast/park-history.ts';
import { dayBoundsOf } from '../local-time.ts';
import { findPark, PARK_SLUGS } from '../parks.ts';
import { DAYS_CREDIT, daysQueryOf, parkDayBody, parkDayCsv } from './park-days.ts';
import type { ParkDay } from './park-days-schemas.ts';

const RIDES = { AK85: "Na'vi River Journey", AK86: 'Avatar Flight of Passage' } as const;

/**
 * The example, by the real code (`parkDayBody`, `parkDayCsv`) over real data: TouringPlans.com
 * posted waits of two Animal Kingdom rides on 24 February 2019, 09:00 to 09:20, sampled every 5
 * minutes as the service samples. Never served, so no forecasts: `served` is empty, `forecast` too.
 */
export function parkDayExample(): { json: ParkDay; csv: string } {
  const park = findPark('animal-kingdom');
  if (!park) throw new Error('animal-kingdom is missing from the park table');
  const { startsAt } = dayBoundsOf('2019-02-24', park.timezone);
  const [from, to] = [startsAt + 9 * 3_600_000, startsAt + 9 * 3_600_000 + 20 * 60_000];
  const rides = Object.entries(posted as Record<keyof typeof RIDES, [number, number | null][]>);
  const samples = gridSamples(rides.map(([id, rows]) => ({ id, samples: rows.map(([at, wait]) => ({ at, wait })) })));
  const day = addSamples(
    emptyDay('2019-02-24'),
    samples.filter((sample) => sample.at >= from && sample.at <= to),
    RIDES,
  );
  const json = parkDayBody(park, day, null);
  return { json, csv: parkDayCsv(json, park.name) };
}

const query = (search: string) => () => daysQueryOf(new URLSearchParams(search));

/** The days path, with `example` (`parkDayExample`) where the whole description is built. */
export const parkDaysPaths = (example?: { json: ParkDay; csv: string }): Record<string, JsonObject> => {
  return {
    '/api/wait-times/days': publicGet({
      operationId: 'getParkDay',
      summary: 'One finished day at one park: every posted wait recorded and the forecasts served, as JSON or CSV',
      description: `The data behind GET /api/accuracy: a park's finished local day (its own time zone) as the service recorded it, every 5 minutes while the park was open, with what it served then (the 30-minute \`forecast\`, the outlook 60 and 120 minutes ahead, the usual waits and the best time). Days are kept 400 days; a day not finished yet, or not kept, is a 404. A finished day never changes: it is cached a day, by browsers too (\`Cache-Control: public, max-age=86400, immutable\`).\n\nWith \`format=csv\`, one long CSV in TouringPlans.com's columns, which \`npm run backtest\` reads: a first line starting with \`#\` holds the credit, then \`ride_id,ride_name,date,datetime,SPOSTMIN,forecast\`: the local \`MM/DD/YYYY\` date, the local \`YYYY-MM-DD HH:MM:SS\` time, the posted minutes (-999: closed), and the 30-minute forecast served at that time (empty: none). Credit "${DAYS_CREDIT}" wherever the data is shown.\n\nThe example is real data from TouringPlans.com (Animal Kingdom, 24 February 2019, 09:00 to 09:20), run through the same code; it was never served, so it has no forecasts.`,
      tag: 'Wait times',
      parameters: [
        {
          name: 'park',
          in: 'query',
          required: true,
          description: 'Park slug, matched exactly (the same slugs as GET /api/wait-times).',
          schema: { type: 'string', enum: PARK_SLUGS },
          example: 'animal-kingdom',
        },
        {
          name: 'date',
          in: 'query',
          required: true,
          description: "The park's local date, YYYY-MM-DD: a day that has ended in the park's time zone.",
          schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          example: '2019-02-24',
        },
        {
          name: 'format',
          in: 'query',
          required: false,
          description: '`json` (the default) or `csv`.',
          schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
        },
      ],
      ok: 'The finished day: JSON, rides sorted by name; or the CSV with `format=csv`.',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ParkDay' },
          ...(example && { example: example.json }),
        },
        'text/csv': { schema: { type: 'string' }, ...(example && { example: example.csv }) },
      },
      more: {
        '400': errorResponseObject(
          '`park` or `date` is missing, `date` is not a calendar date as YYYY-MM-DD, or `format` is neither json nor csv.',
          thrownBy(query('park=epcot&date=2026-13-01')),
          PUBLIC_HEADERS,
        ),
        '404': errorResponseObject(
          "`park` is not one of the 17 slugs, or the day has not ended in the park's time zone, or it is not kept (nothing recorded, or more than 400 days ago).",
          new HttpError(404, 'day not finished: 2099-01-01 in America/New_York'),
          PUBLIC_HEADERS,
        ),
      },
    }),
  };
};
