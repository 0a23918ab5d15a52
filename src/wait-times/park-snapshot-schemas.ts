import * as z from '../platform/zod-mini.ts';

const minutes = () => z.int().check(z.minimum(0));
const unixMs = () => z.int().check(z.minimum(0));

/** A ride as we keep it after normalising the upstream payload. */
export const SnapshotRideSchema = z.object({
  id: z.int(),
  name: z.string(),
  wait: minutes(),
  open: z.boolean(),
});

/** The last good upstream answer for one park (fallback when the upstream fails). */
export const ParkSnapshotSchema = z.object({
  fetchedAt: unixMs(),
  rides: z.array(SnapshotRideSchema),
});

/**
 * One history sample: the waits of every ride at one fetch, by upstream ride id; `null` means
 * the ride was closed. Trend and forecast compare against these.
 */
export const HistorySampleSchema = z.object({
  at: unixMs(),
  waits: z.record(z.string(), z.nullable(minutes())),
});

export type SnapshotRide = z.output<typeof SnapshotRideSchema>;
export type ParkSnapshot = z.output<typeof ParkSnapshotSchema>;
export type HistorySample = z.output<typeof HistorySampleSchema>;
