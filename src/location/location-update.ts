import { badRequest } from '../platform/errors.ts';
import { validBody } from '../platform/request-body.ts';
import { MINUTE_MS } from '../platform/time-units.ts';
import {
  type Location,
  OverlandBatchSchema,
  OwnTracksLocationSchema,
  PlainLocationUpdateSchema,
  parseIsoDateTime,
} from './location-schemas.ts';

/** The owner's update in its three formats (plain, OwnTracks, Overland) as one `LocationUpdate`, and each app's answer. */

/** A phone's clock may run this far ahead of ours (its time is then read as now); further is an error. */
export const MAX_CLOCK_SKEW_MS = 5 * MINUTE_MS;

const INVALID = 'invalid location update';

export type UpdateFormat = 'plain' | 'owntracks' | 'overland';

export interface LocationUpdate {
  /** The fix time, or the arrival time when the body has none. */
  at: number;
  position?: { lat: number; lon: number; label?: string };
  /** Travel mode switched on or off. */
  active?: boolean;
}

/**
 * A 400 with `issues` for anything malformed; `update` is null when there is nothing to apply
 * (another OwnTracks `_type`, an Overland batch without points).
 */
export function parseLocationUpdate(
  body: unknown,
  now: number,
): { format: UpdateFormat; update: LocationUpdate | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('body must be a JSON object');
  }
  // Told apart by their marker members, OwnTracks first (it may carry anything).
  if ('_type' in body) return { format: 'owntracks', update: fromOwnTracks(body, now) };
  if ('locations' in body) return { format: 'overland', update: fromOverland(body, now) };
  return { format: 'plain', update: fromPlain(body, now) };
}

function fromPlain(body: object, now: number): LocationUpdate {
  const plain = validBody(PlainLocationUpdateSchema, body, INVALID);
  const { timestamp, label, active } = plain;
  const sentAt = typeof timestamp === 'string' ? parseIsoDateTime(timestamp) : (timestamp ?? now);
  const update: LocationUpdate = { at: fixTime(sentAt, now, 'timestamp') };
  const lat = plain.lat ?? plain.latitude;
  const lon = plain.lon ?? plain.longitude;
  // Numeric text has been checked to be a plain decimal in range.
  if (lat !== undefined && lon !== undefined) {
    update.position = { lat: Number(lat), lon: Number(lon), ...(label ? { label } : {}) };
  }
  if (active !== undefined) update.active = active;
  return update;
}

function fromOwnTracks(body: object, now: number): LocationUpdate | null {
  if ((body as { _type?: unknown })._type !== 'location') return null;
  const message = validBody(OwnTracksLocationSchema, body, INVALID);
  return { at: fixTime(message.tst * 1000, now, 'tst'), position: { lat: message.lat, lon: message.lon } };
}

/** The newest point with a geometry, among `locations` and `current`. */
function fromOverland(body: object, now: number): LocationUpdate | null {
  const { locations, current } = validBody(OverlandBatchSchema, body, INVALID);
  const features = locations.map((feature, index) => ({ feature, path: `locations.${index}` }));
  if (current) features.push({ feature: current, path: 'current' });
  let newest: { at: number; lat: number; lon: number; path: string } | undefined;
  for (const { feature, path } of features) {
    const timestamp = feature.properties?.timestamp;
    if (!feature.geometry || timestamp === undefined) continue;
    const at = parseIsoDateTime(timestamp);
    const [lon, lat] = feature.geometry.coordinates;
    if (!newest || at > newest.at) newest = { at, lat, lon, path };
  }
  if (!newest) return null;
  const { at, lat, lon, path } = newest;
  return { at: fixTime(at, now, `${path}.properties.timestamp`), position: { lat, lon } };
}

function fixTime(at: number, now: number, path: string): number {
  if (at > now + MAX_CLOCK_SKEW_MS) throw badRequest(INVALID, [{ path, message: 'is in the future' }]);
  return Math.min(at, now);
}

/** The answer each app expects to a successful POST. */
export function answerFor(format: UpdateFormat, location: Location): unknown {
  if (format === 'owntracks') return []; // messages for the app: none here
  if (format === 'overland') return { result: 'ok' }; // the app deletes the batch from the phone only after this
  return location;
}
