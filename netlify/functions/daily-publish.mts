import type { Config, Context } from '@netlify/functions';
import { runPublishJob } from '../../src/jobs/publish-job.ts';
import { runResponse } from '../../src/platform/http.ts';

/** The daily publish job: builds the site so that posts dated today go live. */
export default async (_request: Request, _context: Context): Promise<Response> => runResponse(await runPublishJob());

// Netlify reads this statically: the schedule is a literal, at 00:00 UTC
// (https://docs.netlify.com/functions/scheduled-functions/).
export const config: Config = { schedule: '@daily' };
