import type { JsonObject } from '../../platform/openapi-vocabulary.ts';
import { parkGet } from '../park-get-openapi.ts';
import { waitTimesExample } from './example.ts';

export const waitTimesPaths: Record<string, JsonObject> = {
  '/api/wait-times': parkGet({
    operationId: 'getWaitTimes',
    summary: 'Live ride waits for one park',
    description:
      'Relayed from queue-times.com: the service records every open park every 5 minutes and this answer is that record, so do not poll faster than every 5 minutes. Outside a park\'s published hours (more than 30 minutes before opening or after closing) the last answer of its day stands. Each ride carries a `trend` against about 30 minutes earlier and a `forecast` for about 30 minutes ahead. If the provider fails, the last good data (up to 24 hours old) is answered with its honest `updatedAt`. Credit the provider ("Powered by Queue-Times.com", linked to https://queue-times.com/) wherever the data is shown.',
    park: { description: 'Park slug, matched exactly.', example: 'epcot' },
    ok: { description: 'The rides of the park, sorted by name.', schemaId: 'WaitTimes', example: waitTimesExample() },
  }),
};
