import { publicJsonRoutes } from '../../platform/public-json-routes.ts';
import { RELAY_STALE_WHILE_REVALIDATE_SECONDS } from '../../platform/relay-cache.ts';
import { getAccuracy, parkOrEveryPark } from '../../wait-times/accuracy/accuracy.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async ({ url }) => {
  const park = parkOrEveryPark(url.searchParams.get('park'));
  const result = await getAccuracy(park);
  return {
    body: result.body,
    cache: {
      maxAge: result.maxAgeSeconds,
      swr: RELAY_STALE_WHILE_REVALIDATE_SECONDS,
      kind: 'accuracy',
      ...(park && { park: park.slug }),
    },
  };
});
