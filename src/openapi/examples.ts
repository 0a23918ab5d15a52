/**
 * Examples for the OpenAPI document, produced by running the real code on real recorded data,
 * so an example can never show something the API would not answer.
 */
import epcot from '../../fixtures/queue-times/queue-times-epcot-jzxhanta.json' with { type: 'json' };
import { HttpError } from '../lib/errors.ts';
import { ridesOf } from '../lib/queue-times.ts';
import { waitTimesBody } from '../lib/wait-times.ts';
import { QueueTimesParkSchema } from '../schemas/queue-times.ts';
import { type WaitTimes, WaitTimesSchema } from '../schemas/wait-times.ts';

/**
 * GET /api/wait-times?park=epcot as answered for a real queue-times.com payload (EPCOT,
 * fixtures/queue-times/queue-times-epcot-jzxhanta.json), fetched when its rides were last updated.
 * With no history yet every trend is `flat`.
 */
export function waitTimesExample(): WaitTimes {
  const upstream = QueueTimesParkSchema.parse(epcot);
  const fetchedAt = Math.max(
    ...[...upstream.lands.flatMap((land) => land.rides), ...upstream.rides].map((ride) =>
      Date.parse(ride.last_updated ?? '1970-01-01T00:00:00Z'),
    ),
  );
  return WaitTimesSchema.parse(waitTimesBody({ fetchedAt, rides: ridesOf(upstream) }, null));
}

/** The error that `task` throws, for examples of error responses taken from the code that answers them. */
export function thrownBy(task: () => unknown): HttpError {
  try {
    task();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected the example task to throw an HttpError');
}
