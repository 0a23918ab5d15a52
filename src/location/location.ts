import { randomUUID } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { HttpError, ServiceUnavailableError } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import type { RateLimit } from '../platform/rate-limit.ts';
import {
  deleteRecords,
  isTimeKeyed,
  listKeys,
  readRecord,
  timeKey,
  timeOfKey,
  writeRecord,
} from '../platform/store.ts';
import { requireBearerToken } from './bearer-auth.ts';
import {
  type Location,
  LocationSchema,
  type StoredPin,
  StoredPinSchema,
  type StoredTravelSwitch,
  StoredTravelSwitchSchema,
} from './location-schemas.ts';
import { answerFor, type LocationUpdate, parseLocationUpdate } from './location-update.ts';

/**
 * The travel-mode pin (CONTRACT.md "GET /api/location and POST /api/location").
 *
 * - Only a coarse position is ever kept: coordinates are snapped to a 0.01° grid (about 1 km)
 *   before they are stored, and nothing else the phone sends is kept or published.
 * - Travel mode is a switch: on until an update says `"active": false`, then off until one says
 *   `"active": true`. While it is off, positions are answered as accepted and thrown away.
 * - Order is by the time a position was taken, not by arrival: a late, queued fix never replaces
 *   a newer one.
 */

/** Cache tag of GET /api/location, purged when an update changes what it publishes. */
export const LOCATION_CACHE_TAG = 'location';
/** Request bodies above this are refused with 413 (OwnTracks can attach large images). */
export const MAX_BODY_BYTES = 64 * 1024;
/** Failed owner authentications allowed per client before 429. */
export const AUTH_FAILURES: RateLimit = { name: 'location-auth-failures', limit: 10, windowMs: 15 * 60_000 };

/** What is kept: the newest pin and the newest travel switch (each `null` when there is none). */
export interface PinState {
  pin: StoredPin | null;
  travel: StoredTravelSwitch | null;
}

/** Snaps a coordinate to 2 decimal places (a fixed grid: the same place always gives the same value). */
export function coarsen(degrees: number): number {
  const snapped = Math.round(degrees * 100) / 100;
  return snapped === 0 ? 0 : snapped; // no "-0"
}

/**
 * What an update changes: a new travel switch when it is newer than the stored one, and a new pin
 * when travel mode is on at its time and it is newer than the stored pin. Pure, so the same rules
 * decide for every instance.
 */
export function planUpdate(
  state: { newestPinAt: number | null; travel: StoredTravelSwitch | null },
  update: LocationUpdate,
): { travel?: StoredTravelSwitch; pin?: StoredPin } {
  const writes: { travel?: StoredTravelSwitch; pin?: StoredPin } = {};
  let travel = state.travel;
  if (update.active !== undefined && (travel === null || update.at > travel.at)) {
    travel = { active: update.active, at: update.at };
    writes.travel = travel;
  }
  const position = update.position;
  if (position && isTravelling(travel, update.at) && (state.newestPinAt === null || update.at > state.newestPinAt)) {
    writes.pin = {
      lat: coarsen(position.lat),
      lon: coarsen(position.lon),
      ...(position.label ? { label: position.label } : {}),
      at: update.at,
    };
  }
  return writes;
}

/** Travel mode is on at `at` when it was never switched, or switched on at or before `at`. */
function isTravelling(travel: StoredTravelSwitch | null, at: number): boolean {
  return travel === null || (travel.active && at >= travel.at);
}

/** What GET publishes for a state: live (coarse) while travelling with a recent pin, else the stale marker. */
export function publicLocation(state: PinState, now: number, staleAfterMs: number): Location {
  const { pin, travel } = state;
  if (!pin) return { status: 'stale', updatedAt: null };
  const updatedAt = new Date(pin.at).toISOString();
  if (!isTravelling(travel, pin.at) || now - pin.at > staleAfterMs) return { status: 'stale', updatedAt };
  return {
    status: 'live',
    lat: coarsen(pin.lat),
    lon: coarsen(pin.lon),
    updatedAt,
    ...(pin.label ? { label: pin.label } : {}),
  };
}

/*
 * Storage. Pins and travel switches are kept in the `location` store, one key per accepted update,
 * named by the update's own time: `pin/<ms, 15 digits>-<uuid>`, `travel/<ms>-<on|off>-<uuid>`. The
 * newest key of each prefix is the current value, so:
 * - two instances writing at once never overwrite each other, and whichever finishes last, the
 *   reader still takes the newest by fix time. There is no read-modify-write of one record, so no
 *   conditional write and no retry is needed (docs/consistency.md).
 * - after a write, the keys it saw that are older than its own are deleted. A writer can only delete
 *   keys older than one it knows is stored, so the newest key is never deleted.
 * - a travel key names its switch, so the switch is read from the listing alone.
 */
const STORE = 'location';
const PIN_PREFIX = 'pin/';
const TRAVEL_PREFIX = 'travel/';

const pinKeyFor = (pin: StoredPin) => `${PIN_PREFIX}${timeKey(pin.at)}-${randomUUID()}`;
const travelKeyFor = (travel: StoredTravelSwitch) =>
  `${TRAVEL_PREFIX}${timeKey(travel.at)}-${travel.active ? 'on' : 'off'}-${randomUUID()}`;

/**
 * Our keys under a prefix, oldest first. A key of another shape (`pin/zzz`) is never taken for the
 * newest pin; the temporary files of writes in progress are left out by `listKeys` already.
 */
async function keysOf(prefix: string): Promise<string[]> {
  return (await listKeys(STORE, prefix)).filter((key) => isTimeKeyed(key.slice(prefix.length)));
}

interface StoredState extends PinState {
  pinKeys: string[];
  travelKeys: string[];
}

/**
 * The keys and what they hold. Each record is parsed back through its schema; a damaged one (even
 * one that is not JSON) reads as absent (`readRecord`), and the next update replaces it.
 */
async function readStored(): Promise<StoredState> {
  const [pinKeys, travelKeys] = await Promise.all([keysOf(PIN_PREFIX), keysOf(TRAVEL_PREFIX)]);
  const newestPin = pinKeys.at(-1);
  const newestTravel = travelKeys.at(-1)?.slice(TRAVEL_PREFIX.length);
  return {
    pinKeys,
    travelKeys,
    pin: newestPin ? await readRecord(STORE, newestPin, StoredPinSchema) : null,
    travel: newestTravel ? { active: /^\d+-on-/.test(newestTravel), at: timeOfKey(newestTravel) } : null,
  };
}

/** The stored state (pin and travel switch); throws when Blobs fails. */
export async function readPinState(): Promise<PinState> {
  const { pin, travel } = await readStored();
  return { pin, travel };
}

/**
 * GET /api/location. Never throws: when Blobs cannot be read, the answer is the stale marker
 * with `degraded: true` (the caller should not cache it).
 */
export async function readPublicLocation(now = Date.now()): Promise<{ location: Location; degraded: boolean }> {
  const staleAfterMs = getConfig().LOCATION_STALE_AFTER_MINUTES * 60_000;
  try {
    const state = await readPinState();
    return { location: LocationSchema.parse(publicLocation(state, now, staleAfterMs)), degraded: false };
  } catch (error) {
    console.warn('Location pin unreadable, answering stale:', (error as Error).message);
    return { location: { status: 'stale', updatedAt: null }, degraded: true };
  }
}

/**
 * POST /api/location after authentication: applies a body and returns what to answer, and
 * whether what GET publishes changed (so its cached answers must go). With `later`, deleting the
 * superseded keys is finished after the answer.
 */
export async function receiveLocationUpdate(
  body: unknown,
  { now = Date.now(), later }: { now?: number; later?: AfterAnswer } = {},
): Promise<{ answer: unknown; changed: boolean }> {
  const staleAfterMs = getConfig().LOCATION_STALE_AFTER_MINUTES * 60_000;
  const { format, update } = parseLocationUpdate(body, now);
  const { pin, travel, pinKeys, travelKeys } = await storeUnavailableAs503(readStored);
  const publicAt = (pinNow: StoredPin | null, travelSwitch: StoredTravelSwitch | null) =>
    publicLocation({ pin: pinNow, travel: travelSwitch }, now, staleAfterMs);
  if (!update) return { answer: answerFor(format, publicAt(pin, travel)), changed: false };

  const newestPinKey = pinKeys.at(-1);
  const writes = planUpdate(
    { newestPinAt: newestPinKey ? timeOfKey(newestPinKey.slice(PIN_PREFIX.length)) : null, travel },
    update,
  );
  await storeUnavailableAs503(() =>
    Promise.all([
      writes.pin && writeRecord(STORE, pinKeyFor(writes.pin), StoredPinSchema, writes.pin),
      writes.travel && writeRecord(STORE, travelKeyFor(writes.travel), StoredTravelSwitchSchema, writes.travel),
    ]),
  );
  const superseded = [...(writes.pin ? pinKeys : []), ...(writes.travel ? travelKeys : [])];
  // A failure only leaves garbage that the next write removes.
  if (superseded.length > 0)
    await finishLater('prune old location records', () => deleteRecords(STORE, superseded), later);

  const before = publicAt(pin, travel);
  const after = publicAt(writes.pin ?? pin, writes.travel ?? travel);
  return { answer: answerFor(format, after), changed: JSON.stringify(after) !== JSON.stringify(before) };
}

/**
 * POST /api/location authentication: `LOCATION_TOKEN` as Bearer (or as the Basic password). When
 * the failure counter in Blobs cannot be read, the request is refused (503), never let through.
 * With `later`, the counter's housekeeping is finished after the answer.
 */
export async function requireLocationOwner(request: Request, client: string, later?: AfterAnswer): Promise<void> {
  const config = getConfig();
  await storeUnavailableAs503(() =>
    requireBearerToken(request, {
      expected: config.LOCATION_TOKEN,
      siteUrl: config.SITE_URL,
      client,
      failures: AUTH_FAILURES,
      later,
    }),
  );
}

/**
 * Blobs failing is a temporary condition, not a bug: 503, which the phone apps retry later (a 4xx
 * would make OwnTracks on iOS drop the message).
 */
async function storeUnavailableAs503<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    console.warn('Location store unavailable:', (error as Error).message);
    throw new ServiceUnavailableError('location store unavailable');
  }
}

/**
 * OwnTracks may POST a zero-length body (a friend was deleted); its documentation says to ignore
 * it. Android identifies itself in `User-Agent`; iOS always sends `X-Limit-U` / `X-Limit-D`.
 */
export function isEmptyOwnTracksPost(request: Request): boolean {
  if (request.headers.get('content-length') !== '0') return false;
  const agent = request.headers.get('user-agent') ?? '';
  return /^owntracks/i.test(agent) || request.headers.has('x-limit-u') || request.headers.has('x-limit-d');
}
