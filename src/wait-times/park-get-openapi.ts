import { upstreamUnavailable } from '../platform/errors.ts';
import {
  errorResponseObject,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
  thrownBy,
} from '../platform/openapi-vocabulary.ts';
import { RELAY_BACKOFF_MS } from '../platform/relay-cache.ts';
import { PARK_SLUGS, parkFromQuery } from './parks.ts';

/** A GET of one park's data: the `park` parameter, the 200, and the park rules and relay failures. */
export function parkGet(get: {
  operationId: string;
  summary: string;
  description: string;
  park: { description: string; example: string };
  ok: { description: string; schemaId: string; example: unknown };
  /** Whether a request may ask the provider (and so answer 502): not where only stored data is read. */
  relayed?: boolean;
}): JsonObject {
  const { park, ok, relayed = true, ...operation } = get;
  return publicGet({
    ...operation,
    tag: 'Wait times',
    parameters: [
      {
        name: 'park',
        in: 'query',
        required: true,
        description: park.description,
        schema: { type: 'string', enum: PARK_SLUGS },
        example: park.example,
      },
    ],
    ok: ok.description,
    content: jsonContent(ok.schemaId, ok.example),
    more: {
      '400': errorResponseObject(
        '`park` is missing or empty.',
        thrownBy(() => parkFromQuery(null)),
        PUBLIC_HEADERS,
      ),
      '404': errorResponseObject(
        '`park` is not one of the 17 slugs.',
        thrownBy(() => parkFromQuery('atlantis')),
        PUBLIC_HEADERS,
      ),
      ...(relayed && {
        '502': errorResponseObject(
          'The provider failed and there is no earlier data (up to 24 hours old) to fall back on.',
          upstreamUnavailable(RELAY_BACKOFF_MS / 1000),
          ['Retry-After', ...PUBLIC_HEADERS],
        ),
      }),
    },
  });
}
