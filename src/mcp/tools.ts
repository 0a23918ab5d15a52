import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readPublicLocation } from '../location/location.ts';
import { LocationSchema } from '../location/location-schemas.ts';
import type { AfterAnswer } from '../platform/http.ts';
import * as z from '../platform/zod-mini.ts';
import { getAccuracy } from '../wait-times/accuracy/accuracy.ts';
import { type AccuracyRow, AccuracySchema } from '../wait-times/accuracy/accuracy-schemas.ts';
import { getWaitHistory } from '../wait-times/day/history.ts';
import {
  BestTimeSchema,
  RideDownSchema,
  RideOutageSchema,
  WaitHistorySchema,
} from '../wait-times/day/history-schemas.ts';
import { type ParkHours, ParkListSchema } from '../wait-times/hours/park-hours-schemas.ts';
import { getParkList } from '../wait-times/hours/park-list.ts';
import { getWaitTimes } from '../wait-times/live/live-waits.ts';
import { PARK_SLUGS, type PARKS } from '../wait-times/parks.ts';
import { RideSchema, WaitTimesSchema } from '../wait-times/wait-times-schemas.ts';
import { downBrief, downNote } from './down-note.ts';
import { recentEventsTool } from './recent-events-tool.ts';
import {
  answer,
  CREDIT,
  credit,
  find,
  findPark,
  HOURS_CREDIT,
  hoursCredit,
  parkInput,
  parkName,
  typedName,
} from './tool-kit.ts';

export { CREDIT, HOURS_CREDIT } from './tool-kit.ts';

// The MCP tools: each answers from the same cached code as the GET endpoint it mirrors (so the same one
// upstream request per park per 5 minutes), and none writes anything an agent could change.

const clock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);
type Ride = z.output<typeof RideSchema>;
const rideLine = (ride: Ride) =>
  ride.open ? `${ride.name}: ${ride.wait} min, ${ride.trend}, ~${ride.forecast} min in 30 min` : `${ride.name}: closed`;

/** When the park closes today, in words, or that it is not known. */
const closingNote = (hours: ParkHours | null, timeZone: string) =>
  hours === null
    ? 'Closing time unknown (no published hours).'
    : `The park closes at ${clock(hours.closesAt, timeZone)} park time.`;

function bestTimeNote(ride: Ride, bestTime: z.output<typeof BestTimeSchema> | null, timeZone: string): string {
  if (!ride.open)
    return 'It is closed now (down for a while or for the day; the data cannot tell), so there is no best time.';
  if (bestTime === null)
    return 'No best time before closing: too little is learned about its usual day yet, or the park closes first.';
  const best = `about ${clock(bestTime.at, timeZone)} park time, around ${bestTime.wait} min`;
  return ride.wait <= bestTime.wait
    ? `Now is as good as it gets: the lowest wait expected later today is ${best}.`
    : `Best time still ahead: ${best} (an outlook from its usual day and today's crowd, not a promise).`;
}

/** "09:00–22:00 park time", "hours unknown", "open now" or "closed now" in a sentence. */
function hoursPhrase(hours: ParkHours | null, timeZone: string, now: number): string {
  if (hours === null) return 'hours unknown';
  const span = `${clock(hours.opensAt, timeZone)}–${clock(hours.closesAt, timeZone)}`;
  const open = hours.opensAt <= now && now < hours.closesAt;
  return `${span} park time (${open ? 'open now' : 'closed now'})`;
}

/** A skill in words: "12 % closer than" or "8 % further off than" the better reference. */
const skillPhrase = (skill: number) =>
  `${Math.round(Math.abs(skill) * 100)} % ${skill >= 0 ? 'closer than' : 'further off than'} the better of no change and the usual day`;

/** One row of the scorecard in a line. */
function accuracyLine(row: AccuracyRow): string {
  const graded = `${row.n.toLocaleString('en-US')} graded`;
  if (row.skill === null) return `${row.minutes} min: ${row.note ?? 'no skill'} (${graded})`;
  const interval =
    row.skillLow === null || row.skillHigh === null
      ? ''
      : `, 95 % interval ${Math.round(row.skillLow * 100)} to ${Math.round(row.skillHigh * 100)} %`;
  return `${row.minutes} min: ${skillPhrase(row.skill)} (MAE ${row.mae} min${interval}; ${graded})`;
}

/** The park's 28-day skill at 30 minutes, for `when_to_ride`; null when unknown or too few graded. */
async function skillAt30(park: (typeof PARKS)[number]): Promise<number | null> {
  const { body } = await getAccuracy(park);
  const window = body.windows.find((entry) => entry.days === 28);
  return window?.parks[0]?.horizons.find((row) => row.minutes === 30)?.skill ?? null;
}

const BEST_TIME =
  'The half hour still ahead today with the lowest expected wait (as `bestTime` in GET /api/wait-times/history), never at or after the closing time; null when the ride is closed now, too little is learned, or the park closes first.';
const WhenToRideSchema = {
  park: z.enum(PARK_SLUGS),
  parkName,
  updatedAt: WaitTimesSchema.shape.updatedAt,
  ride: RideSchema,
  bestTime: z.nullable(BestTimeSchema).check(z.describe(BEST_TIME)),
  down: z
    .nullable(RideDownSchema)
    .check(
      z.describe(
        'The ride is down now (as `down` in GET /api/wait-times/history): since when, and the chance it reopens within 15, 30 and 60 more minutes from recorded outages; null when it is not down (open, closed for the day, or nothing recorded).',
      ),
    ),
  outages: z
    .array(RideOutageSchema)
    .check(z.describe("The ride's outages today, in order (as `outages` in GET /api/wait-times/history).")),
  closesAt: z
    .nullable(WaitTimesSchema.shape.updatedAt)
    .check(z.describe("Unix ms of the park's public closing today (its published hours); null when unknown.")),
  forecastSkill: z
    .nullable(z.number().check(z.maximum(1)))
    .check(
      z.describe(
        "The park's 30-minute forecasts over the last 28 graded days: 1 − their mean error ÷ that of the better of no change and the usual day (as `skill` in GET /api/accuracy); above 0 they were closer. Null when fewer than 30 were graded or nothing is known.",
      ),
    ),
  note: z
    .string()
    .check(
      z.describe(
        'What the answer rests on, in words, with the best time and the closing time in park time, how long the ride has been down and its odds of reopening when it is, and how good the forecasts here have been.',
      ),
    ),
  source: WaitTimesSchema.shape.source,
  credit,
  hoursCredit,
};

/** Every tool, by name: its description, zod input and output shapes, and what it does. */
export function toolDefinitions(later?: AfterAnswer) {
  return {
    list_parks: {
      description:
        "Lists the theme parks this API follows, with the slug every other tool accepts, today's published hours and whether each is open now (as GET /api/parks).",
      inputSchema: {},
      outputSchema: { ...ParkListSchema.shape, hoursCredit },
      run: async (): Promise<CallToolResult> => {
        const { body } = await getParkList({ later });
        const lines = body.parks.map(
          (park) => `${park.slug}: ${park.name}, ${hoursPhrase(park.hours, park.timeZone, Date.now())}`,
        );
        return answer({ ...body, hoursCredit: HOURS_CREDIT }, [...lines, HOURS_CREDIT].join('\n'));
      },
    },
    get_wait_times: {
      description:
        "Live posted waits of every ride in a park, with each ride's trend and its forecast 30 minutes ahead (as GET /api/wait-times).",
      inputSchema: parkInput,
      outputSchema: { park: z.enum(PARK_SLUGS), parkName, ...WaitTimesSchema.shape, credit },
      run: async ({ park: query }: { park: string }): Promise<CallToolResult> => {
        const park = findPark(query);
        const { body } = await getWaitTimes(park, { later });
        const open = body.rides.filter((ride) => ride.open).sort((a, b) => b.wait - a.wait);
        const text = [
          `${park.name}, ${open.length} of ${body.rides.length} rides open at ${clock(body.updatedAt, park.timezone)} park time; longest waits:`,
          ...open.slice(0, 10).map(rideLine),
          CREDIT,
        ].join('\n');
        return answer({ park: park.slug, parkName: park.name, ...body, credit: CREDIT }, text);
      },
    },
    get_park_day: {
      description:
        "Today at a park against a usual day: its published hours, the crowd level, every ride's waits so far with its usual wait per half hour, its outages today and, for a ride down now, its odds of reopening (as GET /api/wait-times/history).",
      inputSchema: parkInput,
      outputSchema: { ...WaitHistorySchema.shape, parkName, credit, hoursCredit },
      run: async ({ park: query }: { park: string }): Promise<CallToolResult> => {
        const park = findPark(query);
        const { body } = await getWaitHistory(park);
        const { level, ratio, comparisons } = body.crowd;
        const crowd =
          level === null
            ? `not known yet (${comparisons} comparisons so far)`
            : `${level} (waits at ${Math.round((ratio ?? 1) * 100)} % of usual)`;
        const hours = hoursPhrase(body.hours, park.timezone, Date.now());
        const down = body.rides.flatMap((ride) => (ride.down ? [downBrief(ride.name, ride.down)] : []));
        const downLine = down.length
          ? `\nDown now: ${down.join(', ')}; odds from recorded outages, not a promise.`
          : '';
        const text = `${park.name} on ${body.date}: ${hours}; crowd ${crowd}; ${body.times.length} samples of ${body.rides.length} rides so far.${downLine}\n${CREDIT}\n${HOURS_CREDIT}`;
        return answer({ ...body, parkName: park.name, credit: CREDIT, hoursCredit: HOURS_CREDIT }, text);
      },
    },
    when_to_ride: {
      description:
        "When to ride one ride today: its posted wait now, trend, forecast 30 minutes ahead, the best time still ahead today from its rest-of-day outlook, and the park's closing time; for a ride down now, since when and its odds of reopening within 15, 30 and 60 minutes. Rides are matched by name as forgivingly as parks.",
      inputSchema: { ...parkInput, ride: typedName(200, 'The ride name') },
      outputSchema: WhenToRideSchema,
      run: async ({ park: parkQuery, ride: rideQuery }: { park: string; ride: string }): Promise<CallToolResult> => {
        const park = findPark(parkQuery);
        const [{ body: day }, { body }, forecastSkill] = await Promise.all([
          getWaitHistory(park),
          getWaitTimes(park, { later }),
          skillAt30(park),
        ]);
        const ride = find(`ride at ${park.name}`, rideQuery, body.rides, (ride) => [ride.name]);
        const ofDay = day.rides.find((entry) => entry.name === ride.name);
        const outlookBest = ofDay?.bestTime ?? null;
        // Down only while the live waits agree it is closed (the day may be a sample behind).
        const down = ride.open ? null : (ofDay?.down ?? null);
        // Advice never points past closing.
        const closesAt = day.hours?.closesAt ?? null;
        const bestTime = outlookBest && closesAt !== null && outlookBest.at >= closesAt ? null : outlookBest;
        const skill =
          forecastSkill === null
            ? 'Too few forecasts graded here yet to say how good they are.'
            : `Over the last 28 days the 30-minute forecasts here were ${skillPhrase(forecastSkill)}.`;
        const now = down
          ? `${downNote(down, (at) => clock(at, park.timezone))} No best time while it is down.`
          : bestTimeNote(ride, bestTime, park.timezone);
        const note = `${now} ${closingNote(day.hours, park.timezone)} ${skill}`;
        const text = `${rideLine(ride)} (${park.name}, ${clock(body.updatedAt, park.timezone)} park time). ${note}\n${CREDIT}\n${HOURS_CREDIT}`;
        const structured = {
          park: park.slug,
          parkName: park.name,
          updatedAt: body.updatedAt,
          ride,
          bestTime,
          down,
          outages: ofDay?.outages ?? [],
          closesAt,
          forecastSkill,
        };
        const credits = { credit: CREDIT, hoursCredit: HOURS_CREDIT };
        return answer({ ...structured, note, source: body.source, ...credits }, text);
      },
    },
    forecast_accuracy: {
      description:
        'How good the forecasts served here have been: every one graded once its park-day ended, per horizon (30, 60, 120 minutes) over the last 7 and 28 graded days, against the better of "no change" and the usual day, with a 95 % interval (as GET /api/accuracy). One park, or every park without `park`.',
      inputSchema: { park: z.optional(parkInput.park) },
      outputSchema: { ...AccuracySchema.shape, credit },
      run: async ({ park: query }: { park?: string }): Promise<CallToolResult> => {
        const park = query === undefined ? null : findPark(query);
        const { body } = await getAccuracy(park);
        const window = body.windows.find((entry) => entry.days === 28);
        const what = park ? park.name : 'All parks pooled';
        const range = window?.to ? `${window.from} to ${window.to}` : 'nothing graded yet';
        const lines = [`${what}, last 28 graded days (${range}):`, ...(window?.pooled ?? []).map(accuracyLine)];
        if (!park && window) {
          lines.push('At 30 minutes, by park:');
          for (const entry of window.parks) {
            const row = entry.horizons.find((horizon) => horizon.minutes === 30);
            if (row) lines.push(`${entry.park}: ${accuracyLine(row)}`);
          }
        }
        lines.push(`Truth: ${body.truth}.`, CREDIT);
        return answer({ ...body, credit: CREDIT }, lines.join('\n'));
      },
    },
    recent_events: recentEventsTool(),
    get_location: {
      description:
        "The site owner's public travel pin, coarsened to about 1 km, or a stale marker (as GET /api/location).",
      inputSchema: {},
      outputSchema: { location: LocationSchema },
      run: async (): Promise<CallToolResult> => {
        const { location } = await readPublicLocation();
        const text =
          location.status === 'live'
            ? `Live near ${location.lat}, ${location.lon}${location.label ? ` (${location.label})` : ''}, as of ${location.updatedAt}.`
            : `No current pin${location.updatedAt ? `; the last one is from ${location.updatedAt}` : ''}.`;
        return answer({ location }, text);
      },
    },
  };
}
