import { badRequest } from '../../platform/errors.ts';
import { MAX_WAIT_MINUTES } from '../wait-times-schemas.ts';
import { EVENT_TYPES, type EventType, type ParkEvent } from './event-schemas.ts';

// The feeds' filters: the query makes the URL the subscription (docs/alerts.md).

/** The query parameters the feeds read (the CDN and the local cache key on these alone). */
export const FILTER_PARAMETERS = ['ride', 'type', 'below'] as const;
/** More rides than a park has would be no filter. */
export const MAX_RIDE_FILTERS = 100;

/** Rides (queue-times ids) and types: any of them; `below`: a wait now at or under it. Empty: everything. */
export interface EventFilter {
  rides: number[];
  types: EventType[];
  below: number | null;
}

const refuse = (parameter: string, message: string) =>
  badRequest(`bad filter ${parameter}: ${message}`, [{ path: parameter, message }]);

/** The filter a query asks for; 400 naming the parameter when one is malformed. */
export function eventFilterOf(params: URLSearchParams): EventFilter {
  const rides = params.getAll('ride');
  if (rides.some((ride) => !/^\d{1,9}$/.test(ride))) {
    throw refuse('ride', 'expected a queue-times ride id (whole number), once per ride');
  }
  if (rides.length > MAX_RIDE_FILTERS) throw refuse('ride', `at most ${MAX_RIDE_FILTERS} rides`);
  const types = params.getAll('type');
  if (types.some((type) => !(EVENT_TYPES as readonly string[]).includes(type))) {
    throw refuse('type', `expected one of ${EVENT_TYPES.join(', ')}`);
  }
  const below = params.getAll('below');
  const minutes = below.length === 1 && /^\d{1,3}$/.test(below[0] ?? '') ? Number(below[0]) : null;
  if (below.length > 0 && (minutes === null || minutes > MAX_WAIT_MINUTES)) {
    throw refuse('below', `expected whole minutes from 0 to ${MAX_WAIT_MINUTES}, once`);
  }
  return {
    rides: [...new Set(rides.map(Number))].sort((a, b) => a - b),
    types: EVENT_TYPES.filter((type) => types.includes(type)),
    below: minutes,
  };
}

/** Whether an event passes: `below` keeps only events of a ride running with a wait at or under it. */
export function matches(filter: EventFilter, event: ParkEvent): boolean {
  if (filter.rides.length > 0 && !filter.rides.includes(event.ride?.id ?? -1)) return false;
  if (filter.types.length > 0 && !filter.types.includes(event.type)) return false;
  return filter.below === null || (event.waitNow !== null && event.waitNow <= filter.below);
}

/** The filter as a query, in one order, so one subscription has one URL (`feed_url`, the Atom `self`). */
export function filterQuery(filter: EventFilter): string {
  const params = new URLSearchParams([
    ...filter.rides.map((ride) => ['ride', String(ride)]),
    ...filter.types.map((type) => ['type', type]),
    ...(filter.below === null ? [] : [['below', String(filter.below)]]),
  ]);
  const query = params.toString();
  return query && `?${query}`;
}
