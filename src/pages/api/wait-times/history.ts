import { publicJsonRoutes } from '../../../endpoints/public-json.ts';
import { parkFromQuery } from '../../../lib/wait-times.ts';
import { getWaitHistory } from '../../../wait-times/history.ts';

export const prerender = false;

/** As GET /api/wait-times: once fresh data has aged out, it is still answered at once this long. */
const STALE_WHILE_REVALIDATE_SECONDS = 600;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async ({ url }) => {
  const result = await getWaitHistory(parkFromQuery(url.searchParams.get('park')));
  return {
    body: result.body,
    cache: { maxAge: result.maxAgeSeconds, swr: STALE_WHILE_REVALIDATE_SECONDS, tags: ['wait-times'] },
  };
});
