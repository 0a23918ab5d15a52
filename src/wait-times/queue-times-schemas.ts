import { MINUTES_PER_DAY } from '../platform/time-units.ts';
import * as z from '../platform/zod-mini.ts';

/** One ride as queue-times.com reports it; `wait_time` is 0 both when closed and when not posted. */
const QueueTimesRideSchema = z.object({
  id: z.number().check(z.int(), z.nonnegative()),
  name: z.string(),
  is_open: z.boolean(),
  wait_time: z.nullable(z.number().check(z.nonnegative(), z.maximum(MINUTES_PER_DAY))),
  last_updated: z.optional(z.iso.datetime({ offset: true })),
});

/**
 * `GET /parks/{id}/queue_times.json`: rides sit inside `lands[]` and sometimes at top level.
 * Unknown keys are ignored (the provider may add some).
 */
export const QueueTimesParkSchema = z.object({
  lands: z.array(z.object({ id: z.number().check(z.int()), name: z.string(), rides: z.array(QueueTimesRideSchema) })),
  rides: z.array(QueueTimesRideSchema),
});

export type QueueTimesPark = z.output<typeof QueueTimesParkSchema>;
