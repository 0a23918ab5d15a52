import type { Config } from '@netlify/functions';
import { deliverQueuedMessages } from '../../src/contact/contact.ts';
import { respond } from '../../src/platform/http.ts';

/**
 * Sends the contact messages the SMTP server refused earlier, with backoff (src/contact/contact.ts).
 * Netlify runs it on the schedule below (UTC, five-field cron); `npm start` runs it the same way.
 */
export default async (): Promise<Response> => respond({ json: await deliverQueuedMessages(Date.now()) });

export const config: Config = {
  schedule: '*/5 * * * *',
};
