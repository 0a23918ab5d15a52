import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../platform/zod-mini.ts';
import { EVENT_TYPES, type ParkEvent, ParkEventSchema } from '../wait-times/events/event-schemas.ts';
import { readRecentEvents } from '../wait-times/events/event-store.ts';
import { eventTitle, parkClock } from '../wait-times/events/event-text.ts';
import { PARK_SLUGS } from '../wait-times/parks.ts';
import { matchName } from './name-match.ts';
import { answer, CREDIT, credit, findPark, parkInput, parkName, typedName } from './tool-kit.ts';

/** `recent_events`: a park's events of the last 48 hours (docs/alerts.md), as its feeds serve them. */
export const recentEventsTool = () => ({
  description:
    'What changed at a park in the last 48 hours, newest first: rides down (with the odds of reopening) and reopened, waits crossing 10, 20, 30, 45 or 60 minutes, the park opening, closing or stopping many rides at once (as GET /api/parks/{slug}/events). Optionally one ride, matched by name as forgivingly as parks, and some event types.',
  inputSchema: {
    ...parkInput,
    ride: z.optional(typedName(200, 'Only this ride')),
    types: z.optional(z.array(z.enum(EVENT_TYPES)).check(z.describe('Only these event types.'))),
  },
  outputSchema: { park: z.enum(PARK_SLUGS), parkName, events: z.array(ParkEventSchema), note: z.string(), credit },
  run: async (input: { park: string; ride?: string; types?: string[] }): Promise<CallToolResult> => {
    const park = findPark(input.park);
    const kept = await readRecentEvents(park.slug);
    const typed = input.types ? kept.filter((event) => input.types?.includes(event.type)) : kept;
    // Rides are matched among those with events: a ride with none has nothing to tell.
    const rides = [...new Map(kept.flatMap((event) => (event.ride ? [[event.ride.id, event.ride]] : []))).values()];
    const match = input.ride === undefined ? null : matchName(input.ride, rides, (ride) => [ride.name]);
    const ride = match && 'found' in match ? match.found : null;
    const events: ParkEvent[] = match ? typed.filter((event) => ride !== null && event.ride?.id === ride.id) : typed;
    const note =
      match && !ride
        ? `No events in the last 48 hours for a ride named "${input.ride}" at ${park.name}`
        : `${events.length} events${ride ? ` of ${ride.name}` : ''} at ${park.name} in the last 48 hours`;
    const lines = events
      .slice(0, 20)
      .map((event) => `${parkClock(event.at, park.timezone)} ${eventTitle(event, park)}`);
    const text = [`${note} (park time):`, ...lines, CREDIT].join('\n');
    return answer({ park: park.slug, parkName: park.name, events, note, credit: CREDIT }, text);
  },
});
