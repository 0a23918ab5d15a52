import { BadRequestError } from '../platform/errors.ts';
import * as z from '../platform/zod-mini.ts';
import {
  degreesOf,
  type Location,
  OverlandBatchSchema,
  type OverlandFeature,
  OwnTracksLocationSchema,
  PlainLocationUpdateSchema,
  parseIsoDateTime,
} from './location-schemas.ts';

/**
 * What the owner's phone sends to POST /api/location, in its three formats (plain, OwnTracks,
 * Overland; CONTRACT.md), read into one `LocationUpdate`, and the answer each app expects back.
 * The rules that apply an update are in src/location/location.ts.
 */

/** A phone's clock may run this far ahead of ours; its time is then taken as "now". Further is an error. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export type UpdateFormat = 'plain' | 'owntracks' | 'overland';

/** One owner update in the form the rules work with. */
export interface LocationUpdate {
  /** When the update happened: the fix time, or the arrival time when the body has none. */
  at: number;
  /** A new position, if the update carries one. */
  position?: { lat: number; lon: number; label?: string };
  /** Travel mode switched on or off, if the update says so. */
  active?: boolean;
}

/**
 * Reads a request body in one of the three formats. Returns `null` for a message that is
 * accepted but carries nothing to apply (another OwnTracks `_type`, an Overland batch without
 * points). Throws 400 with `issues` for anything malformed or out of range.
 */
export function parseLocationUpdate(
  body: unknown,
  now: number,
): { format: UpdateFormat; update: LocationUpdate | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('body must be a JSON object');
  }
  // The formats are told apart by their own marker members, OwnTracks first (it may carry anything).
  if ('_type' in body) return { format: 'owntracks', update: fromOwnTracks(body, now) };
  if ('locations' in body) return { format: 'overland', update: fromOverland(body, now) };
  return { format: 'plain', update: fromPlain(body, now) };
}

function fromPlain(body: object, now: number): LocationUpdate {
  const plain = validate(PlainLocationUpdateSchema, body);
  const { timestamp } = plain;
  const sentAt =
    timestamp === undefined ? now : typeof timestamp === 'number' ? timestamp : parseIsoDateTime(timestamp);
  const update: LocationUpdate = { at: fixTime(sentAt, now, 'timestamp') };
  const lat = plain.lat ?? plain.latitude;
  const lon = plain.lon ?? plain.longitude;
  if (lat !== undefined && lon !== undefined) {
    update.position = { lat: degreesOf(lat), lon: degreesOf(lon), ...(plain.label ? { label: plain.label } : {}) };
  }
  if (plain.active !== undefined) update.active = plain.active;
  return update;
}

function fromOwnTracks(body: object, now: number): LocationUpdate | null {
  if ((body as { _type?: unknown })._type !== 'location') return null;
  const message = validate(OwnTracksLocationSchema, body);
  return { at: fixTime(message.tst * 1000, now, 'tst'), position: { lat: message.lat, lon: message.lon } };
}

function fromOverland(body: object, now: number): LocationUpdate | null {
  const batch = validate(OverlandBatchSchema, body);
  let newest: { at: number; feature: OverlandFeature; path: string } | undefined;
  const candidates = batch.locations.map((feature, index) => ({ feature, path: `locations.${index}` }));
  if (batch.current) candidates.push({ feature: batch.current, path: 'current' });
  for (const { feature, path } of candidates) {
    const timestamp = feature.properties?.timestamp;
    if (!feature.geometry || timestamp === undefined) continue;
    const at = parseIsoDateTime(timestamp);
    if (!newest || at > newest.at) newest = { at, feature, path };
  }
  if (!newest?.feature.geometry) return null;
  const [lon, lat] = newest.feature.geometry.coordinates;
  return { at: fixTime(newest.at, now, `${newest.path}.properties.timestamp`), position: { lat, lon } };
}

function validate<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  throw new BadRequestError(
    'invalid location update',
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

/** A fix time checked against our clock: a little ahead is read as now, far ahead is refused. */
function fixTime(at: number, now: number, path: string): number {
  if (at > now + MAX_CLOCK_SKEW_MS) {
    throw new BadRequestError('invalid location update', [{ path, message: 'is in the future' }]);
  }
  return Math.min(at, now);
}

/** The answer each app expects to a successful POST. */
export function answerFor(format: UpdateFormat, location: Location): unknown {
  switch (format) {
    case 'owntracks':
      return []; // OwnTracks: an array of messages for the app, none here
    case 'overland':
      return { result: 'ok' }; // Overland deletes the batch from the phone only after this
    case 'plain':
      return location;
  }
}
