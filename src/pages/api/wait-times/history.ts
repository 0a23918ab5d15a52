import { publicJsonRoutes } from '../../../platform/public-json-routes.ts';
import { RELAY_STALE_WHILE_REVALIDATE_SECONDS } from '../../../platform/relay-cache.ts';
import { getWaitHistory } from '../../../wait-times/day/history.ts';
import { parkFromQuery } from '../../../wait-times/parks.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async ({ url }) => {
  const park = parkFromQuery(url.searchParams.get('park'));
  const result = await getWaitHistory(park);
  return {
    body: result.body,
    cache: {
      maxAge: result.maxAgeSeconds,
      swr: RELAY_STALE_WHILE_REVALIDATE_SECONDS,
      kind: 'wait-times-history',
      park: park.slug,
    },
  };
});
