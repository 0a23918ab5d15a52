import {
  errorResponseObject,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
  thrownBy,
} from '../../platform/openapi-vocabulary.ts';
import { PARK_SLUGS } from '../parks.ts';
import { MIN_GRADED, parkOrEveryPark } from './accuracy.ts';
import type { Accuracy } from './accuracy-schemas.ts';

/**
 * GET /api/accuracy, with `example` (accuracy-example.ts: the real code over SYNTHETIC grades) where
 * the whole description is built: its bootstrap takes tens of milliseconds the API catalog does without.
 */
export const accuracyPaths = (example?: Accuracy): Record<string, JsonObject> => ({
  '/api/accuracy': publicGet({
    operationId: 'getAccuracy',
    summary: 'How good the forecasts served here were: every one graded, per park and horizon, against no change',
    description: `Every forecast of posted waits this service served (the 30-minute \`forecast\` of GET /api/wait-times, the outlook's expected waits 60 and 120 minutes ahead, the best time) is kept and graded once its park's local day has ended, against the posted wait recorded nearest the target time (\`truth\`, \`samplingMinutes\`). This answers the sums of the last 7 and the last 28 graded dates, per park and horizon and pooled over the parks asked for (never across horizons). \`skill\` = 1 − mae ÷ min(maePersistence, maeUsual): above 0, the forecasts were closer than the better of "no change" (the wait posted at the time) and the ride's usual day; below 0, you would have done better with that reference. \`skillLow\`/\`skillHigh\` bound it with a 95 % bootstrap interval over park-days (seeded: the same grades always give the same answer). A row with fewer than ${MIN_GRADED} graded forecasts gives \`skill: null\` with a \`note\`, never noise. Every park is listed, with \`days: 0\` while nothing is graded there. Grading runs hourly: the answer is cached until a few minutes past the next full hour. Credit "Powered by Queue-Times.com" (linked to https://queue-times.com/) wherever it is shown.\n\nThe example answers \`?park=epcot\` over 28 days of SYNTHETIC grades (made up for the example, not measured), run through the same code.`,
    tag: 'Wait times',
    parameters: [
      {
        name: 'park',
        in: 'query',
        required: false,
        description:
          'One park slug, matched exactly: `parks` holds that park alone and `pooled` equals its rows. Absent: every park.',
        schema: { type: 'string', enum: PARK_SLUGS },
        example: 'epcot',
      },
    ],
    ok: 'The scorecard: the last 7 and 28 graded dates, each park and pooled.',
    content: jsonContent('Accuracy', example),
    more: {
      '400': errorResponseObject(
        '`park` is present but empty (leave it out for every park).',
        thrownBy(() => parkOrEveryPark('')),
        PUBLIC_HEADERS,
      ),
      '404': errorResponseObject(
        '`park` is not one of the 17 slugs.',
        thrownBy(() => parkOrEveryPark('atlantis')),
        PUBLIC_HEADERS,
      ),
    },
  }),
});
