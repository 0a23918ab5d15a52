import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readPublicLocation } from '../location/location.ts';
import { LocationSchema } from '../location/location-schemas.ts';
import type { AfterAnswer } from '../platform/http.ts';
import * as z from '../platform/zod-mini.ts';
import { getWaitHistory } from '../wait-times/day/history.ts';
import { BestTimeSchema, WaitHistorySchema } from '../wait-times/day/history-schemas.ts';
import { PARK_SLUGS, PARKS } from '../wait-times/parks.ts';
import { getWaitTimes } from '../wait-times/wait-times.ts';
import { RideSchema, WaitTimesSchema } from '../wait-times/wait-times-schemas.ts';
import { matchName } from './name-match.ts';

// The MCP tools: each answers from the same cached code as the GET endpoint it mirrors (so the same one
// upstream request per park per 5 minutes), and none writes anything an agent could change.

/** queue-times.com's terms ask every use of its data to credit it with a link. */
export const CREDIT = 'Powered by Queue-Times.com (https://queue-times.com/)';
const credit = z.literal(CREDIT).check(z.describe('Credit the data source with this line wherever waits are shown.'));

/** A name an agent types: at least one character, at most `max`. */
const typedName = (max: number, description: string) => {
  const help = `${description}; case, accents and small misspellings are fine.`;
  return z.string().check(z.minLength(1), z.maxLength(max), z.describe(help));
};
const parkInput = { park: typedName(100, 'A park slug or name, e.g. "epcot" or "Magic Kingdom"') };
const parkName = z.string().check(z.describe('The park as named here.'));

/** A tool's result: the structured value, and the text an agent host shows when it ignores structure. */
const answer = (structured: Record<string, unknown>, text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/** The candidate a query names, else an error with the nearest names (the SDK answers it as the tool's error result). */
function find<T>(what: string, query: string, candidates: readonly T[], namesOf: (candidate: T) => string[]): T {
  const match = matchName(query, candidates, namesOf);
  if ('found' in match) return match.found;
  throw new Error(`Unknown ${what} "${query}". Nearest: ${match.nearest.join(', ')}.`);
}

const findPark = (query: string) => find('park', query, PARKS, (park) => [park.slug, park.name]);

const clock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);
type Ride = z.output<typeof RideSchema>;
const rideLine = (ride: Ride) =>
  ride.open ? `${ride.name}: ${ride.wait} min, ${ride.trend}, ~${ride.forecast} min in 30 min` : `${ride.name}: closed`;

function bestTimeNote(ride: Ride, bestTime: z.output<typeof BestTimeSchema> | null, timeZone: string): string {
  if (!ride.open)
    return 'It is closed now (down for a while or for the day; the data cannot tell), so there is no best time.';
  if (bestTime === null) return 'Too little is learned about its usual day yet to say when it is best to ride.';
  const best = `about ${clock(bestTime.at, timeZone)} park time, around ${bestTime.wait} min`;
  return ride.wait <= bestTime.wait
    ? `Now is as good as it gets: the lowest wait expected later today is ${best}.`
    : `Best time still ahead: ${best} (an outlook from its usual day and today's crowd, not a promise).`;
}

const ParkEntrySchema = z.strictObject({
  slug: z.enum(PARK_SLUGS).check(z.describe('The park slug every other tool and endpoint accepts.')),
  name: parkName,
  timeZone: z.string().check(z.describe("The park's IANA time zone.")),
});

const BEST_TIME =
  'The half hour still ahead today with the lowest expected wait (as `bestTime` in GET /api/wait-times/history); null when the ride is closed now or too little is learned.';
const WhenToRideSchema = {
  park: z.enum(PARK_SLUGS),
  parkName,
  updatedAt: WaitTimesSchema.shape.updatedAt,
  ride: RideSchema,
  bestTime: z.nullable(BestTimeSchema).check(z.describe(BEST_TIME)),
  note: z.string().check(z.describe('What the answer rests on, in words, with the best time in park time.')),
  source: WaitTimesSchema.shape.source,
  credit,
};

/** Every tool, by name: its description, zod input and output shapes, and what it does. */
export function toolDefinitions(later?: AfterAnswer) {
  return {
    list_parks: {
      description: 'Lists the theme parks this API follows, with the slug every other tool accepts.',
      inputSchema: {},
      outputSchema: { parks: z.array(ParkEntrySchema) },
      run: async (): Promise<CallToolResult> => {
        const parks = PARKS.map(({ slug, name, timezone }) => ({ slug, name, timeZone: timezone }));
        return answer({ parks }, parks.map((park) => `${park.slug}: ${park.name}`).join('\n'));
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
        "Today at a park against a usual day: the crowd level, and every ride's waits so far with its usual wait per half hour (as GET /api/wait-times/history).",
      inputSchema: parkInput,
      outputSchema: { ...WaitHistorySchema.shape, parkName, credit },
      run: async ({ park: query }: { park: string }): Promise<CallToolResult> => {
        const park = findPark(query);
        const { body } = await getWaitHistory(park);
        const { level, ratio, comparisons } = body.crowd;
        const crowd =
          level === null
            ? `not known yet (${comparisons} comparisons so far)`
            : `${level} (waits at ${Math.round((ratio ?? 1) * 100)} % of usual)`;
        const text = `${park.name} on ${body.date}: crowd ${crowd}; ${body.times.length} samples of ${body.rides.length} rides so far.\n${CREDIT}`;
        return answer({ ...body, parkName: park.name, credit: CREDIT }, text);
      },
    },
    when_to_ride: {
      description:
        'When to ride one ride today: its posted wait now, trend, forecast 30 minutes ahead, and the best time still ahead today from its rest-of-day outlook. Rides are matched by name as forgivingly as parks.',
      inputSchema: { ...parkInput, ride: typedName(200, 'The ride name') },
      outputSchema: WhenToRideSchema,
      run: async ({ park: parkQuery, ride: rideQuery }: { park: string; ride: string }): Promise<CallToolResult> => {
        const park = findPark(parkQuery);
        // The day first: it refreshes the live waits and records the day before reading it.
        const { body: day } = await getWaitHistory(park);
        const { body } = await getWaitTimes(park, { later });
        const ride = find(`ride at ${park.name}`, rideQuery, body.rides, (ride) => [ride.name]);
        const bestTime = day.rides.find((entry) => entry.name === ride.name)?.bestTime ?? null;
        const note = bestTimeNote(ride, bestTime, park.timezone);
        const text = `${rideLine(ride)} (${park.name}, ${clock(body.updatedAt, park.timezone)} park time). ${note}\n${CREDIT}`;
        const structured = { park: park.slug, parkName: park.name, updatedAt: body.updatedAt, ride, bestTime };
        return answer({ ...structured, note, source: body.source, credit: CREDIT }, text);
      },
    },
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
