import type { Config, Context } from '@netlify/functions';
import { runPhotoTokenRefreshJob } from '../../src/photo-feed/photo-token.ts';
import { runResponse } from '../../src/platform/http.ts';

/** Keeps the photo feed's long-lived token from expiring (it lasts 60 days). */
export default async (_request: Request, _context: Context): Promise<Response> =>
  runResponse(await runPhotoTokenRefreshJob());

// Daily at 03:30 UTC, away from the other jobs.
export const config: Config = { schedule: '30 3 * * *' };
