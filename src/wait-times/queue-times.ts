import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import type { SnapshotRide } from './park-snapshot-schemas.ts';
import { type QueueTimesPark, QueueTimesParkSchema } from './queue-times-schemas.ts';

/** The provider answers within this or counts as down (CONTRACT: "slow (over 8 s)"). */
export const UPSTREAM_TIMEOUT_MS = 8_000;
/** Real payloads are 3–6 KB; anything near this is not a wait-time list. */
export const MAX_UPSTREAM_BYTES = 1024 * 1024;

/** Fetches and validates one park's live waits from queue-times.com. */
export async function fetchQueueTimes(baseUrl: string, parkId: number): Promise<QueueTimesPark> {
  const label = `queue-times park ${parkId}`;
  const answer = await callUpstream({
    label,
    url: `${baseUrl}/parks/${parkId}/queue_times.json`,
    headers: { Accept: 'application/json', 'User-Agent': 'site-api (+wait-times relay)' },
    timeoutMs: UPSTREAM_TIMEOUT_MS,
    // One more try on network errors and 5xx; a 4xx will not get better by asking again, and
    // after a timeout the 8 s are spent.
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    retryAfterTimeout: false,
    maxBytes: MAX_UPSTREAM_BYTES,
  });
  if (answer.status < 200 || answer.status > 299) throw new UpstreamError(`${label}: status ${answer.status}`);
  const parsed = QueueTimesParkSchema.safeParse(parseJson(answer.text, label));
  if (!parsed.success) throw new UpstreamError(`${label}: unexpected payload shape`, { cause: parsed.error });
  return parsed.data;
}

/**
 * The park's rides, once each: rides inside lands and at top level both count, deduplicated by
 * the provider's ride id (first occurrence wins), waits rounded to whole minutes.
 */
export function ridesOf(park: QueueTimesPark): SnapshotRide[] {
  const seen = new Map<number, SnapshotRide>();
  for (const ride of [...park.lands.flatMap((land) => land.rides), ...park.rides]) {
    if (seen.has(ride.id)) continue;
    seen.set(ride.id, {
      id: ride.id,
      name: ride.name.trim(),
      wait: Math.round(ride.wait_time ?? 0),
      open: ride.is_open,
    });
  }
  return [...seen.values()];
}
