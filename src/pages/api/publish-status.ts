import { getPublishStatus } from '../../jobs/job-status.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

export const prerender = false;

/** The jobs run daily and hourly; a minute of caching keeps a busy monitor off Blobs without hiding a run for long. */
const CACHE_SECONDS = 60;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => ({
  body: await getPublishStatus(),
  cache: { maxAge: CACHE_SECONDS, swr: CACHE_SECONDS, tags: ['job-status'] },
}));
