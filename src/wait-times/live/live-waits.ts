import type { AfterAnswer } from '../../platform/http.ts';
import { RELAY_FRESH_FOR_MS, relayCache } from '../../platform/relay-cache.ts';
import { MINUTE_MS } from '../../platform/time-units.ts';
import type { ForecastBasis } from '../accuracy/accuracy-schemas.ts';
import { resetBasisMemory, servedBasisOf } from '../accuracy/forecast-basis.ts';
import { dayKindOf } from '../forecast/day-kind.ts';
import { persistenceOf, trendAndForecastOf } from '../forecast/forecast.ts';
import { blobsHistory, type HistoryContext, readContext } from '../forecast/park-history.ts';
import type { WaitProfile } from '../forecast/wait-profile-schemas.ts';
import { isInRecordingWindow, parkHoursToday } from '../hours/park-hours.ts';
import { claimPeriod, readAnswer, writeAnswer } from '../park-answer.ts';
import type { HistorySample, ParkSnapshot } from '../park-snapshot-schemas.ts';
import { byName, type Park } from '../parks.ts';
import { fetchSnapshot } from '../queue-times.ts';
import type { WaitTimes } from '../wait-times-schemas.ts';

/**
 * The recorder (recorder/record-waits.ts) stores every open park's answer each period; a visitor's
 * request asks the upstream itself only when the stored answer is older than a period plus this
 * margin (no schedule runs, or it is late), so a site without the schedule still answers current data.
 */
export const RECORDER_MARGIN_MS = 2 * MINUTE_MS;

/**
 * GET /api/wait-times reads; the recorder writes. A request's refresh, where no recorder keeps the
 * answer fresh, builds the same body from what it reads (the sample 30 minutes back, the profile)
 * and stores the answer alone: it learns nothing (docs/wait-times.md).
 */
const relay = relayCache<Park, WaitTimes>({
  label: 'Wait times',
  keyOf: (park) => park.slug,
  fetch: answerFromUpstream,
  timeOf: (body) => body.updatedAt,
  async readStored(park) {
    const body = await readAnswer(park.slug);
    return body && { fetchedAt: body.updatedAt, value: body };
  },
  writeStored: (park, { value }) => writeAnswer(park.slug, value),
  // One upstream request per park per 5-minute period across the recorder and every instance (docs/consistency.md).
  claim: (park, periodStart) => claimPeriod(park.slug, periodStart),
  storedFreshForMs: RELAY_FRESH_FOR_MS + RECORDER_MARGIN_MS,
  // A park its published hours close (outside the recorder's window) keeps its last answer.
  mayAsk: async (park) => isInRecordingWindow(await parkHoursToday(park), Date.now()) !== false,
});

/** A visitor's refresh: one upstream request, trend and forecast from what is stored (the basis too), nothing learned. */
async function answerFromUpstream(park: Park): Promise<WaitTimes> {
  const [snapshot, hours, basis] = await Promise.all([fetchSnapshot(park), parkHoursToday(park), basisOf(park)]);
  const kind = dayKindOf(hours, park.timezone);
  // Blobs failing costs trend and forecast (`flat`, persistence), never the answer.
  const { earlier, profile } = await readContext(blobsHistory(park.slug), snapshot.fetchedAt, kind).catch(
    (error: Error): HistoryContext => {
      console.warn(`Wait times (${park.slug}): could not read the history: ${error.message}`);
      return { earlier: null, profile: null };
    },
  );
  return waitTimesBody(snapshot, earlier, { profile, timeZone: park.timezone, basis });
}

/**
 * What the park's 30-minute `forecast` serves (accuracy/forecast-basis.ts, read once an hour):
 * the model when Blobs fails, as without a record.
 */
export function basisOf(park: Park): Promise<ForecastBasis> {
  return servedBasisOf(park.slug).catch((error: Error) => {
    console.warn(`Wait times (${park.slug}): could not read the forecast basis: ${error.message}`);
    return 'model' as const;
  });
}

/**
 * The park's answer to GET /api/wait-times as stored for this period, and how long it may be
 * cached (`fallback`: the upstream failed and this is older data). With `later` (the platform's
 * `waitUntil`) storing a visitor's refresh finishes after the answer.
 */
export async function getWaitTimes(
  park: Park,
  { later }: { later?: AfterAnswer | undefined } = {},
): Promise<{ body: WaitTimes; maxAgeSeconds: number; fallback: boolean }> {
  const { value, maxAgeSeconds, fallback } = await relay.get(park, { later });
  return { body: value, maxAgeSeconds, fallback };
}

/** Forgets everything kept in memory (tests start each case cold). */
export function resetWaitTimesMemory(): void {
  relay.reset();
  resetBasisMemory();
}

/**
 * The body for a snapshot, the sample about 30 minutes before it and, when known, the park's
 * profile and time zone (without them the forecast is persistence) and its `basis` (`persistence`:
 * the forecast is the wait now, docs/accuracy.md#never-worse-than-no-change). Pure: fallback data
 * included, every field describes the data as of `updatedAt`.
 */
export function waitTimesBody(
  snapshot: ParkSnapshot,
  earlier: HistorySample | null,
  { profile, timeZone, basis = 'model' }: { profile: WaitProfile | null; timeZone: string; basis?: ForecastBasis } = {
    profile: null,
    timeZone: 'UTC',
  },
): WaitTimes {
  const context = { profile, timeZone, at: snapshot.fetchedAt, earlier };
  const rides = snapshot.rides.map((ride) => ({ ...ride, ...trendAndForecastOf(context, ride) })).sort(byName);
  return servedAs({ updatedAt: snapshot.fetchedAt, source: 'queue-times.com', rides }, basis);
}

/** The model's answer as served on `basis`: on `persistence` every `forecast` is the wait now (5-minute steps). */
export function servedAs(answer: WaitTimes, basis: ForecastBasis): WaitTimes {
  if (basis === 'model') return answer;
  return { ...answer, rides: answer.rides.map((ride) => ({ ...ride, forecast: persistenceOf(ride) })) };
}
