import * as z from '../platform/zod-mini.ts';

export const minutes = z.int().check(z.minimum(0));

/** The last good upstream answer for one park (the fallback when the upstream fails), rides normalised. */
export const ParkSnapshotSchema = z.object({
  fetchedAt: z.unixMs(),
  rides: z.array(z.object({ id: z.int(), name: z.string(), wait: minutes, open: z.boolean() })),
});

/** Who asks the upstream for one park in one 5-minute period: a write-once key, the first creator asks. */
export const UpstreamClaimSchema = z.object({ claimedAt: z.unixMs() });

/** The waits of every ride at one fetch, by upstream ride id (`null`: closed); trend and forecast compare these. */
export const HistorySampleSchema = z.object({ at: z.unixMs(), waits: z.record(z.string(), z.nullable(minutes)) });

export type ParkSnapshot = z.output<typeof ParkSnapshotSchema>;
export type SnapshotRide = ParkSnapshot['rides'][number];
export type HistorySample = z.output<typeof HistorySampleSchema>;
