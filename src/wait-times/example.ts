/**
 * The wait-times answer the OpenAPI document and the agent skill show, produced by running the
 * real code on real recorded data, so an example can never show something the API would not answer.
 */
import epcot from '../../fixtures/queue-times/queue-times-epcot-jzxhanta.json' with { type: 'json' };
import { ridesOf } from './queue-times.ts';
import { QueueTimesParkSchema } from './queue-times-schemas.ts';
import { waitTimesBody } from './wait-times.ts';
import { type WaitTimes, WaitTimesSchema } from './wait-times-schemas.ts';

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
