import { UpstreamError } from '../../platform/errors.ts';
import { callUpstream, parseJson, TRANSIENT_STATUSES } from '../../platform/upstream-http.ts';
import * as z from '../../platform/zod-mini.ts';
import {
  MAX_SCHEDULE_ROWS,
  type ScheduleRow,
  UpstreamScheduleRowSchema,
  UpstreamScheduleSchema,
} from './park-hours-schemas.ts';

/**
 * Fetches one park's published schedule from ThemeParks.wiki and keeps its valid rows, times as
 * Unix ms. A row that fails its check (closing not after opening, an unparseable time, an unknown
 * type) is dropped alone; a payload that is not a schedule, or has no valid row, throws UpstreamError.
 */
export async function fetchParkSchedule(
  baseUrl: string,
  parkId: string,
  { userAgent }: { userAgent: string },
): Promise<ScheduleRow[]> {
  const label = `ThemeParks.wiki schedule ${parkId}`;
  const answer = await callUpstream({
    label,
    url: `${baseUrl}/entity/${encodeURIComponent(parkId)}/schedule`,
    headers: { Accept: 'application/json', 'User-Agent': userAgent },
    // Hours are an extra on an answer that waits for them: a slow provider costs the hours, not the answer.
    timeoutMs: 5_000,
    retries: 1,
    retryOn: TRANSIENT_STATUSES,
    retryAfterTimeout: false,
    // A real 31-day schedule is about 45 KB (fixtures/themeparks-wiki).
    maxBytes: 512 * 1024,
  });
  if (answer.status < 200 || answer.status > 299) throw new UpstreamError(`${label}: status ${answer.status}`);
  return scheduleRowsOf(parseJson(answer.text, label), label);
}

/** The valid rows of a schedule payload, times as Unix ms; throws UpstreamError when none is valid. */
export function scheduleRowsOf(payload: unknown, label: string): ScheduleRow[] {
  const parsed = UpstreamScheduleSchema.safeParse(payload);
  if (!parsed.success) throw new UpstreamError(`${label}: unexpected payload shape`, { cause: parsed.error });
  const { schedule } = parsed.data;
  const rows = schedule.slice(0, MAX_SCHEDULE_ROWS).flatMap((row) => {
    const valid = z.safeParse(UpstreamScheduleRowSchema, row);
    if (!valid.success) return [];
    const { date, type, description, openingTime, closingTime } = valid.data;
    const opensAt = Date.parse(openingTime);
    return [{ date, type, description: description ?? null, opensAt, closesAt: Date.parse(closingTime) }];
  });
  if (rows.length < schedule.length)
    console.warn(`${label}: ignored ${schedule.length - rows.length} of ${schedule.length} rows`);
  // Nothing usable is a fault (a broken collector), not news: the last good schedule stays.
  if (rows.length === 0) throw new UpstreamError(`${label}: no valid rows`);
  return rows;
}
