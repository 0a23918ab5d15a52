import { publicJsonRoutes } from '../../../platform/public-json-routes.ts';
import {
  daysQueryOf,
  FINISHED_DAY_MAX_AGE_SECONDS,
  getParkDay,
  parkDayCsv,
} from '../../../wait-times/accuracy/park-days.ts';

export const prerender = false;

// A finished day never changes, so the browser too keeps it a day without asking again (`immutable`);
// no longer, as a day is deleted 400 days on and its answer becomes a 404.
const FINISHED = `public, max-age=${FINISHED_DAY_MAX_AGE_SECONDS}, immutable`;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(
  async ({ url }) => {
    const { park, date, format } = daysQueryOf(url.searchParams);
    const body = await getParkDay(park, date);
    return {
      body,
      ...(format === 'csv' && { csv: parkDayCsv(body, park.name) }),
      headers: { 'Cache-Control': FINISHED },
      cache: { maxAge: FINISHED_DAY_MAX_AGE_SECONDS, kind: 'wait-times-days', park: park.slug },
    };
  },
  [],
  ['park', 'date', 'format'],
);
