import { publicJsonRoutes } from '../../platform/public-json-routes.ts';
import { RELAY_STALE_WHILE_REVALIDATE_SECONDS } from '../../platform/relay-cache.ts';
import { getWaitTimes, parkFromQuery } from '../../wait-times/wait-times.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async ({ url }, later) => {
  const result = await getWaitTimes(parkFromQuery(url.searchParams.get('park')), { later });
  return {
    body: result.body,
    cache: { maxAge: result.maxAgeSeconds, swr: RELAY_STALE_WHILE_REVALIDATE_SECONDS, tags: ['wait-times'] },
  };
});
