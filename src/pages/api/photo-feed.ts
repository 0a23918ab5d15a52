import { getPhotoFeed } from '../../photo-feed/photo-feed.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';
import { RELAY_STALE_WHILE_REVALIDATE_SECONDS } from '../../platform/relay-cache.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => {
  const result = await getPhotoFeed();
  return {
    body: result.body,
    cache: { maxAge: result.maxAgeSeconds, swr: RELAY_STALE_WHILE_REVALIDATE_SECONDS, kind: 'photo-feed' },
  };
});
