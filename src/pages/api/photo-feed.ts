import { publicJsonRoutes } from '../../endpoints/public-json.ts';
import { getPhotoFeed } from '../../lib/photo-feed.ts';

export const prerender = false;

/** Once fresh data has aged out, it is still answered at once this long while a refresh runs. */
const STALE_WHILE_REVALIDATE_SECONDS = 600;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => {
  const result = await getPhotoFeed();
  return {
    body: result.body,
    cache: { maxAge: result.maxAgeSeconds, swr: STALE_WHILE_REVALIDATE_SECONDS, tags: ['photo-feed'] },
  };
});
