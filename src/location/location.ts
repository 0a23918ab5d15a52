import { randomUUID } from 'node:crypto';
import { getConfig } from '../platform/config.ts';
import { unavailableAs503 } from '../platform/errors.ts';
import { type AfterAnswer, finishLater } from '../platform/http.ts';
import {
  deleteRecords,
  isTimeKeyed,
  listKeys,
  readRecord,
  timeKey,
  timeOfKey,
  writeRecord,
} from '../platform/store.ts';
import { MINUTE_MS } from '../platform/time-units.ts';
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

/** The travel-mode pin (docs/contract.md): a late fix never replaces a newer one; nothing finer than 0.01° is kept. */

export const LOCATION_CACHE_TAG = 'location';
/** OwnTracks can attach large images. */
export const MAX_BODY_BYTES = 64 * 1024;
const AUTH_FAILURES = { name: 'location-auth-failures', limit: 10, windowMs: 15 * MINUTE_MS };

export interface PinState {
  pin: StoredPin | null;
  travel: StoredTravelSwitch | null;
}

/** A fixed grid: the same place always gives the same value, and never `-0`. */
export function coarsen(degrees: number): number {
  return Math.round(degrees * 100) / 100 || 0;
}

/** The writes an update makes: a newer travel switch, and a newer pin while travel mode is on at its time. */
export function planUpdate(
  state: { newestPinAt: number | null; travel: StoredTravelSwitch | null },
  update: LocationUpdate,
): { travel?: StoredTravelSwitch; pin?: StoredPin } {
  const writes: { travel?: StoredTravelSwitch; pin?: StoredPin } = {};
  let travel = state.travel;
  if (update.active !== undefined && (travel === null || update.at > travel.at)) {
    travel = writes.travel = { active: update.active, at: update.at };
  }
  const { position, at } = update;
  if (position && isTravelling(travel, at) && (state.newestPinAt === null || at > state.newestPinAt)) {
    const { lat, lon, label } = position;
    writes.pin = { lat: coarsen(lat), lon: coarsen(lon), ...(label ? { label } : {}), at };
  }
  return writes;
}

/** On at `at` when never switched, or switched on at or before `at`. */
function isTravelling(travel: StoredTravelSwitch | null, at: number): boolean {
  return travel === null || (travel.active && at >= travel.at);
}

/** Live (coarse) while travelling with a recent pin, else the stale marker. */
export function publicLocation({ pin, travel }: PinState, now: number, staleAfterMs: number): Location {
  if (!pin) return { status: 'stale', updatedAt: null };
  const updatedAt = new Date(pin.at).toISOString();
  if (!isTravelling(travel, pin.at) || now - pin.at > staleAfterMs) return { status: 'stale', updatedAt };
  const { lat, lon, label } = pin;
  return { status: 'live', lat: coarsen(lat), lon: coarsen(lon), updatedAt, ...(label ? { label } : {}) };
}

/*
 * Blobs store `location`: write-once keys named by the update's own time, `pin/<ms>-<uuid>` and
 * `travel/<ms>-<on|off>-<uuid>`; the newest key of each prefix is the current value, and a writer
 * deletes only keys older than its own (docs/consistency.md).
 */
const STORE = 'location';
/** Blobs failing is temporary: 503, which the apps retry (a 4xx makes OwnTracks on iOS drop the message). */
const STORE_UNAVAILABLE = 'location store unavailable';

const pinKey = ({ at }: StoredPin) => `pin/${timeKey(at)}-${randomUUID()}`;
// A travel key names its switch, so the switch is read from the listing alone.
const travelKey = ({ at, active }: StoredTravelSwitch) =>
  `travel/${timeKey(at)}-${active ? 'on' : 'off'}-${randomUUID()}`;

/** Our keys under a prefix, oldest first: another shape (`pin/zzz`) is never taken for the newest. */
async function keysOf(prefix: string): Promise<string[]> {
  return (await listKeys(STORE, prefix)).filter((key) => isTimeKeyed(key.slice(prefix.length)));
}

/** Throws when Blobs fails; a damaged pin record reads as no pin (the next update replaces it). */
export async function readPinState(): Promise<PinState & { pinKeys: string[]; travelKeys: string[] }> {
  const [pinKeys, travelKeys] = await Promise.all([keysOf('pin/'), keysOf('travel/')]);
  const newestPin = pinKeys.at(-1);
  const newestTravel = travelKeys.at(-1)?.slice('travel/'.length);
  return {
    pinKeys,
    travelKeys,
    pin: newestPin ? await readRecord(STORE, newestPin, StoredPinSchema) : null,
    travel: newestTravel ? { active: /^\d+-on-/.test(newestTravel), at: timeOfKey(newestTravel) } : null,
  };
}

/** GET /api/location; never throws. When Blobs fails: the stale marker, `degraded` (not to be cached). */
export async function readPublicLocation(now = Date.now()): Promise<{ location: Location; degraded: boolean }> {
  try {
    const location = publicLocation(await readPinState(), now, staleAfterMs());
    return { location: LocationSchema.parse(location), degraded: false };
  } catch (error) {
    console.warn('Location pin unreadable, answering stale:', (error as Error).message);
    return { location: { status: 'stale', updatedAt: null }, degraded: true };
  }
}

/**
 * POST /api/location once authenticated: the answer, and whether what GET publishes changed (its cached
 * answers must go). Superseded keys go after the answer; a failure leaves garbage the next write removes.
 */
export async function receiveLocationUpdate(
  body: unknown,
  { now = Date.now(), later }: { now?: number; later?: AfterAnswer } = {},
): Promise<{ answer: unknown; changed: boolean }> {
  const { format, update } = parseLocationUpdate(body, now);
  const { pin, travel, pinKeys, travelKeys } = await unavailableAs503(STORE_UNAVAILABLE, readPinState);
  const before = publicLocation({ pin, travel }, now, staleAfterMs());
  if (!update) return { answer: answerFor(format, before), changed: false };

  const newestPinKey = pinKeys.at(-1);
  const { pin: newPin, travel: newTravel } = planUpdate(
    { newestPinAt: newestPinKey ? timeOfKey(newestPinKey.slice('pin/'.length)) : null, travel },
    update,
  );
  await unavailableAs503(STORE_UNAVAILABLE, () =>
    Promise.all([
      newPin && writeRecord(STORE, pinKey(newPin), StoredPinSchema, newPin),
      newTravel && writeRecord(STORE, travelKey(newTravel), StoredTravelSwitchSchema, newTravel),
    ]),
  );
  const superseded = [...(newPin ? pinKeys : []), ...(newTravel ? travelKeys : [])];
  if (superseded.length > 0) {
    await finishLater('prune old location records', () => deleteRecords(STORE, superseded), later);
  }
  const after = publicLocation({ pin: newPin ?? pin, travel: newTravel ?? travel }, now, staleAfterMs());
  return { answer: answerFor(format, after), changed: JSON.stringify(after) !== JSON.stringify(before) };
}

/** `LOCATION_TOKEN` as Bearer or Basic password; when the failure counter cannot be read, 503, never through. */
export async function requireLocationOwner(request: Request, client: string, later?: AfterAnswer): Promise<void> {
  const { LOCATION_TOKEN, SITE_URL } = getConfig();
  const options = { expected: LOCATION_TOKEN, siteUrl: SITE_URL, client, failures: AUTH_FAILURES, later };
  await unavailableAs503(STORE_UNAVAILABLE, () => requireBearerToken(request, options));
}

const staleAfterMs = () => getConfig().LOCATION_STALE_AFTER_MINUTES * MINUTE_MS;

/** OwnTracks may POST a zero-length body (a friend was deleted), to be ignored; iOS always sends `X-Limit-U` / `-D`. */
export function isEmptyOwnTracksPost(request: Request): boolean {
  if (request.headers.get('content-length') !== '0') return false;
  const agent = request.headers.get('user-agent') ?? '';
  return /^owntracks/i.test(agent) || request.headers.has('x-limit-u') || request.headers.has('x-limit-d');
}
