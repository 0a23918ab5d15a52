import { FetchError, ofetch } from 'ofetch';
import type { SnapshotRide } from '../schemas/park-snapshot.ts';
import { type QueueTimesPark, QueueTimesParkSchema } from '../schemas/queue-times.ts';
import { UpstreamError } from './errors.ts';

/** The provider answers within this or counts as down (CONTRACT: "slow (over 8 s)"). */
export const UPSTREAM_TIMEOUT_MS = 8_000;
/** Real payloads are 3–6 KB; anything near this is not a wait-time list. */
export const MAX_UPSTREAM_BYTES = 1024 * 1024;

/** Fetches and validates one park's live waits from queue-times.com. */
export async function fetchQueueTimes(baseUrl: string, parkId: number): Promise<QueueTimesPark> {
  const started = Date.now();
  let response: Response;
  try {
    response = await ofetch.raw(`${baseUrl}/parks/${parkId}/queue_times.json`, {
      responseType: 'stream',
      timeout: UPSTREAM_TIMEOUT_MS,
      // One more try on network errors and 5xx; a 4xx will not get better by asking again. A
      // timed-out attempt is not tried again (ofetch reuses its aborted signal): 8 s is the budget.
      retry: 1,
      retryDelay: 250,
      retryStatusCodes: [500, 502, 503, 504],
      headers: { Accept: 'application/json', 'User-Agent': 'site-api (+wait-times relay)' },
    });
  } catch (error) {
    const reason = error instanceof FetchError && error.status ? `status ${error.status}` : 'network error or timeout';
    throw new UpstreamError(`queue-times park ${parkId}: ${reason}`, { cause: error });
  }
  const remainingMs = Math.max(1, UPSTREAM_TIMEOUT_MS - (Date.now() - started));
  const text = await readCapped(response, MAX_UPSTREAM_BYTES, remainingMs);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UpstreamError(`queue-times park ${parkId}: body is not JSON`, { cause: error });
  }
  const parsed = QueueTimesParkSchema.safeParse(json);
  if (!parsed.success) {
    throw new UpstreamError(`queue-times park ${parkId}: unexpected payload shape`, { cause: parsed.error });
  }
  return parsed.data;
}

/** Reads a body as text, giving up past `maxBytes` or `timeoutMs` so a trickle cannot hold us. */
async function readCapped(response: Response, maxBytes: number, timeoutMs: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new UpstreamError(`upstream body of ${declared} bytes is over the ${maxBytes} byte cap`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => {});
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new UpstreamError(`upstream body took longer than ${timeoutMs} ms`);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new UpstreamError(`upstream body is over the ${maxBytes} byte cap`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError('upstream body could not be read in time', { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
