import { getConfig } from '../platform/config.ts';
import { UpstreamError } from '../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../platform/upstream-http.ts';
import type { ParkSnapshot, SnapshotRide } from './park-snapshot-schemas.ts';
import type { Park } from './parks.ts';
import { type QueueTimesPark, QueueTimesParkSchema } from './queue-times-schemas.ts';

/** Fetches and validates one park's live waits from queue-times.com. */
export async function fetchQueueTimes(baseUrl: string, parkId: number): Promise<QueueTimesPark> {
  const label = `queue-times park ${parkId}`;
  const answer = await callUpstream({
    label,
    url: `${baseUrl}/parks/${parkId}/queue_times.json`,
    headers: { Accept: 'application/json', 'User-Agent': 'site-api (+wait-times relay)' },
    // docs/contract.md: slower than 8 s is down, so a timeout is not retried; network errors and 5xx once.
    timeoutMs: 8_000,
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    retryAfterTimeout: false,
    // Real payloads are 3–6 KB.
    maxBytes: 1024 * 1024,
  });
  if (answer.status < 200 || answer.status > 299) throw new UpstreamError(`${label}: status ${answer.status}`);
  const parsed = QueueTimesParkSchema.safeParse(parseJson(answer.text, label));
  if (!parsed.success) throw new UpstreamError(`${label}: unexpected payload shape`, { cause: parsed.error });
  return parsed.data;
}

/** The park's rides once each by provider id (lands first, then top level), waits in whole minutes. */
export function ridesOf(park: QueueTimesPark): SnapshotRide[] {
  const seen = new Map<number, SnapshotRide>();
  for (const { id, name, wait_time, is_open } of [...park.lands.flatMap((land) => land.rides), ...park.rides]) {
    if (!seen.has(id)) seen.set(id, { id, name: name.trim(), wait: Math.round(wait_time ?? 0), open: is_open });
  }
  return [...seen.values()];
}

/** One upstream request for the park's rides now, timed when the answer came. */
export async function fetchSnapshot(park: Park): Promise<ParkSnapshot> {
  const rides = ridesOf(await fetchQueueTimes(getConfig().WAIT_TIMES_UPSTREAM_URL, park.queueTimesId));
  return { fetchedAt: Date.now(), rides };
}
