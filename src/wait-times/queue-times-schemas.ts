import * as z from '../platform/zod-mini.ts';

/**
 * One ride as queue-times.com reports it. Unknown keys are ignored (the provider may add some);
 * `wait_time` is minutes, 0 both for closed rides and for open ones with no posted wait.
 */
export const QueueTimesRideSchema = z.object({
  id: z.number().check(z.int(), z.nonnegative()),
  name: z.string(),
  is_open: z.boolean(),
  wait_time: z.nullable(z.number().check(z.nonnegative(), z.maximum(1440))),
  last_updated: z.optional(z.iso.datetime({ offset: true })),
});

export const QueueTimesLandSchema = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  rides: z.array(QueueTimesRideSchema),
});

/** `GET /parks/{id}/queue_times.json`: rides sit inside `lands[]` and sometimes at top level. */
export const QueueTimesParkSchema = z.object({
  lands: z.array(QueueTimesLandSchema),
  rides: z.array(QueueTimesRideSchema),
});

export type QueueTimesRide = z.output<typeof QueueTimesRideSchema>;
export type QueueTimesPark = z.output<typeof QueueTimesParkSchema>;
