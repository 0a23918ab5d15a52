import { getRecorderStatus, JOB_STATUS_CACHE_SECONDS } from '../../jobs/job-status.ts';
import { publicJsonRoutes } from '../../platform/public-json-routes.ts';

export const prerender = false;

export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => ({
  body: await getRecorderStatus(),
  cache: { maxAge: JOB_STATUS_CACHE_SECONDS, swr: JOB_STATUS_CACHE_SECONDS, kind: 'recorder-status' },
}));
