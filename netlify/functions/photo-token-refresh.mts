import type { Config, Context } from '@netlify/functions';
import { runPhotoTokenRefreshJob } from '../../src/photo-feed/photo-token.ts';
import { respond } from '../../src/platform/http.ts';

/** Keeps the photo feed's long-lived token from expiring (it lasts 60 days). */
export default async (_request: Request, _context: Context): Promise<Response> => {
  const run = await runPhotoTokenRefreshJob();
  // The run record (no secrets), 500 when the run failed so that the function log marks it.
  return respond({ status: run.outcome === 'success' ? 200 : 500, json: run });
};

// Daily at 03:30 UTC, away from the other jobs.
export const config: Config = { schedule: '30 3 * * *' };
