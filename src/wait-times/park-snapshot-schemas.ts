import * as z from 'zod';

/** A ride as we keep it after normalising the upstream payload. */
export const SnapshotRideSchema = z.object({
  id: z.int(),
  name: z.string(),
  wait: z.int().min(0),
  open: z.boolean(),
});

/** The last good upstream answer for one park (fallback when the upstream fails). */
export const ParkSnapshotSchema = z.object({
  fetchedAt: z.int().min(0),
  rides: z.array(SnapshotRideSchema),
});

/**
 * One history sample: the waits of every ride at one fetch, by upstream ride id; `null` means
 * the ride was closed. Trend and forecast compare against these.
 */
export const HistorySampleSchema = z.object({
  at: z.int().min(0),
  waits: z.record(z.string(), z.int().min(0).nullable()),
});

export type SnapshotRide = z.output<typeof SnapshotRideSchema>;
export type ParkSnapshot = z.output<typeof ParkSnapshotSchema>;
export type HistorySample = z.output<typeof HistorySampleSchema>;
