import type { Config } from '@netlify/functions';
import { runGradeForecastsJob } from '../../src/jobs/grade-forecasts-job.ts';
import { respond } from '../../src/platform/http.ts';

/**
 * Grades every park-day that has ended in its park's time zone against what was recorded
 * (src/wait-times/accuracy/grade-days.ts), once: the scorecard's sums (docs/accuracy.md).
 */
export default async (): Promise<Response> => {
  const run = await runGradeForecastsJob();
  // The run record, 500 when a park-day failed so that the function log marks it.
  return respond({ status: run.outcome === 'success' ? 200 : 500, json: run });
};

// Netlify reads this statically: hourly (UTC); a park-day is graded within the hour after its local midnight.
export const config: Config = { schedule: '@hourly' };
