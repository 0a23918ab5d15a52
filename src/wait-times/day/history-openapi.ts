import type { JsonObject } from '../../platform/openapi-vocabulary.ts';
import { parkGet } from '../park-get-openapi.ts';
import type { WaitHistory } from './history-schemas.ts';

/**
 * The history path, with `example` (history-example.ts) where the whole description is built: the
 * example takes most of a second of CPU, which the API catalog, built on demand, does without.
 */
export const waitHistoryPaths = (example?: WaitHistory): Record<string, JsonObject> => ({
  '/api/wait-times/history': parkGet({
    operationId: 'getWaitHistory',
    summary:
      "Today at one park: each ride's waits so far against its usual day, rides down with their odds of reopening, and the crowd level",
    description:
      "The park's current local day (its own time zone): every posted wait sampled so far today, each ride's usual wait for every half hour of the day (learned from the service's own samples over past days; null where not learned yet), and a crowd level comparing today with the usual at the same hours. The service samples every open park every 5 minutes, visitor or not, and this answer only reads what it recorded (a site whose schedule does not run, such as a deploy preview, shows an empty day); it is cached until the next sample is due, so do not poll faster than every 5 minutes. A new local day starts empty at the park's midnight. `hours` is the park's published day from ThemeParks.wiki (as in GET /api/parks; null when unknown, which never means closed). Each ride's `outages` lists today's outages (a ride closed for at least two samples in a row while the park was open, after being open earlier that day; park holds, the last 30 minutes before closing and daily scheduled closures are not outages), and `down`, while one is still running, says since when and the chance it reopens within 15, 30 and 60 minutes: a Kaplan–Meier estimate from the service's recorded outages, per park with a pooled fallback, rounded to 5 %, with the number of outages it rests on; `reopenWithin: null` rather than a guess. An estimate, not a promise. One answer reads 4 records (the day, the usual day, the outages, the reopen odds) per cache miss; a record that cannot be read costs its fields (no ride down, no odds), never the answer. Credit the provider (\"Powered by Queue-Times.com\", linked to https://queue-times.com/) wherever the data is shown, and \"Park hours: ThemeParks.wiki\" wherever the hours are.\n\nThe example is real data from TouringPlans.com (Animal Kingdom, 24 February 2019, until 15:10; the usual day learned from the six days before; the hours Walt Disney World published for that day), run through the same code: Na'vi River Journey had been down since 14:40 (it reopened at 15:30), found by the service's own outage rules; its reopen odds come from an illustrative table, not from measured outages.",
    park: {
      description: 'Park slug, matched exactly (the same slugs as GET /api/wait-times).',
      example: 'animal-kingdom',
    },
    relayed: false,
    ok: {
      description: 'The park day so far, rides sorted by name.',
      schemaId: 'WaitHistory',
      example,
    },
  }),
});
