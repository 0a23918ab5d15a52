import { PARK_SLUGS } from '../lib/parks.ts';
import { headers, type JsonObject, jsonContent } from './shared.ts';

export const waitTimesPaths: Record<string, JsonObject> = {
  '/api/wait-times': {
    get: {
      operationId: 'getWaitTimes',
      summary: 'Live ride waits for one park',
      description:
        'Relayed from queue-times.com and reused for 5 minutes; after that the last data is answered at once while a refresh runs. Credit the provider ("Powered by Queue-Times.com", linked to https://queue-times.com/) wherever the data is shown, and do not poll faster than every 5 minutes.',
      tags: ['Wait times'],
      parameters: [
        {
          name: 'park',
          in: 'query',
          required: true,
          description: 'Park slug.',
          schema: { type: 'string', enum: PARK_SLUGS },
        },
      ],
      responses: {
        '200': {
          description: 'The rides of the park, sorted by name.',
          headers: {
            ETag: headers.ETag,
            'Cache-Control': headers.CacheControl,
            'Access-Control-Allow-Origin': headers.AccessControlAllowOrigin,
          },
          content: jsonContent('WaitTimes'),
        },
        '304': { description: 'Not modified: the `If-None-Match` validator still matches.' },
        '400': { description: '`park` is missing or empty.', content: jsonContent('Error', { error: 'missing park' }) },
        '404': {
          description: '`park` is not one of the 17 slugs.',
          content: jsonContent('Error', { error: 'unknown park' }),
        },
        '405': {
          description: 'Method not allowed.',
          headers: { Allow: headers.Allow },
          content: jsonContent('Error', { error: 'method not allowed' }),
        },
        '502': {
          description: 'The upstream failed and there is no earlier data (up to 24 hours old) to fall back on.',
          headers: { 'Retry-After': headers.RetryAfter },
          content: jsonContent('Error', { error: 'upstream unavailable' }),
        },
      },
    },
  },
};
