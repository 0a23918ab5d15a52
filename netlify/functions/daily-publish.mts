import type { Config, Context } from '@netlify/functions';
import { runPublishJob } from '../../src/jobs/publish-job.ts';
import { respond } from '../../src/platform/http.ts';

/** The daily publish job: builds the site so that posts dated today go live. */
export default async (_request: Request, _context: Context): Promise<Response> => {
  const run = await runPublishJob();
  // The run record (no secrets), 500 when the run failed so that the function log marks it.
  return respond({ status: run.outcome === 'success' ? 200 : 500, json: run });
};

// Netlify reads this statically: the schedule is a literal, at 00:00 UTC
// (https://docs.netlify.com/functions/scheduled-functions/).
export const config: Config = { schedule: '@daily' };
