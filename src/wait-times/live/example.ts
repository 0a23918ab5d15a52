import epcot from '../../../fixtures/queue-times/queue-times-epcot-jzxhanta.json' with { type: 'json' };
import { ridesOf } from '../queue-times.ts';
import { QueueTimesParkSchema } from '../queue-times-schemas.ts';
import { type WaitTimes, WaitTimesSchema } from '../wait-times-schemas.ts';
import { waitTimesBody } from './live-waits.ts';

/**
 * The example the OpenAPI document and the agent skill show: GET /api/wait-times?park=epcot as the real code answers
 * a real payload (fixtures/queue-times), fetched when its rides were last updated, so it can never show what the API
 * would not answer. With no history yet every trend is `flat`.
 */
export function waitTimesExample(): WaitTimes {
  const upstream = QueueTimesParkSchema.parse(epcot);
  const rides = [...upstream.lands.flatMap((land) => land.rides), ...upstream.rides];
  const fetchedAt = Math.max(...rides.map((ride) => Date.parse(ride.last_updated ?? '') || 0));
  return WaitTimesSchema.parse(waitTimesBody({ fetchedAt, rides: ridesOf(upstream) }, null));
}
