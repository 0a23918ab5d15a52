import type { Config, Context } from '@netlify/functions';
import { runNetworkShareJob } from '../../src/jobs/network-share-job.ts';
import { respond } from '../../src/platform/http.ts';

/** The automatic sharing job: shares each new post of the site's feed once. */
export default async (_request: Request, _context: Context): Promise<Response> => {
  const run = await runNetworkShareJob();
  // The run record (no secrets), 500 when the run failed so that the function log marks it.
  return respond({ status: run.outcome === 'success' ? 200 : 500, json: run });
};

// Hourly, on the hour (UTC): a post published by the daily build is shared within the hour.
export const config: Config = { schedule: '@hourly' };
