import type { Config } from '@netlify/functions';
import { runRecordWaitsJob } from '../../src/jobs/record-waits-job.ts';
import { getConfig } from '../../src/platform/config.ts';
import { respond } from '../../src/platform/http.ts';

/**
 * Records the live waits of every open park (src/wait-times/recorder/record-waits.ts), whoever
 * visits: the history, the day and the forecaster learn from every period of the park's day.
 */
export default async (): Promise<Response> => {
  if (getConfig().WAIT_TIMES_RECORDER === 'off') return respond({ json: { recorder: 'off' } });
  const run = await runRecordWaitsJob();
  // The run record, 500 when a park failed so that the function log marks it.
  return respond({ status: run.outcome === 'success' ? 200 : 500, json: run });
};

// Netlify reads this statically: every 5 minutes (UTC), the period of the relay's cache.
export const config: Config = { schedule: '*/5 * * * *' };
