import { publicJsonRoutes } from '../../platform/public-json-routes.ts';
import { RELAY_STALE_WHILE_REVALIDATE_SECONDS } from '../../platform/relay-cache.ts';
import { getWaitTimes } from '../../wait-times/live/live-waits.ts';
import { parkFromQuery } from '../../wait-times/parks.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async ({ url }, later) => {
  const park = parkFromQuery(url.searchParams.get('park'));
  const result = await getWaitTimes(park, { later });
  return {
    body: result.body,
    cache: {
      maxAge: result.maxAgeSeconds,
      swr: RELAY_STALE_WHILE_REVALIDATE_SECONDS,
      kind: 'wait-times',
      park: park.slug,
    },
  };
});
