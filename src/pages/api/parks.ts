import { publicJsonRoutes } from '../../platform/public-json-routes.ts';
import { getParkList } from '../../wait-times/hours/park-list.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async (_context, later) => {
  const { body, maxAgeSeconds } = await getParkList({ later });
  return { body, cache: { maxAge: maxAgeSeconds, kind: 'parks' } };
});
