import {
  createRecord,
  deleteRecords,
  listKeys,
  readRecord,
  timeKey,
  timeOfKey,
  writeRecord,
} from '../platform/store.ts';
import { AlertIndexSchema, type StoredAlert, StoredAlertSchema } from './alert-schemas.ts';

// The alerts in Blobs (store `alerts`). An alert is `subs/<park>/<ride>/<expiry time key>-<id>`, so
// that delivery reads only the alerts of the rides with events, the per-park limit counts one
// listing, and the sweep finds the expired ones from the listing alone; `ids/<id>` points at it for
// DELETE. Nothing lists alerts to a client.

const SUBS = 'subs/';
const alertKey = (alert: Pick<StoredAlert, 'park' | 'ride' | 'expiresAt' | 'id'>) =>
  `${SUBS}${alert.park}/${alert.ride}/${timeKey(alert.expiresAt)}-${alert.id}`;
const indexKey = (id: string) => `ids/${id}`;
/** When the alert behind a key expires (its last segment starts with the time key). */
const lastSegment = (key: string) => key.slice(key.lastIndexOf('/') + 1);
const expiryOfKey = (key: string) => timeOfKey(lastSegment(key));
/** The id after `<15-digit time key>-` (an id may hold dashes itself). */
const idOfKey = (key: string) => lastSegment(key).slice(16);

/** Keeps a new alert; the index goes first, so an alert is never kept that DELETE could not find. */
export async function saveAlert(alert: StoredAlert): Promise<void> {
  const key = alertKey(alert);
  if (!(await createRecord('alerts', indexKey(alert.id), AlertIndexSchema, { key }))) {
    throw new Error('alert id already taken'); // 128 random bits: never, short of a broken random source
  }
  try {
    await writeRecord('alerts', key, StoredAlertSchema, alert);
  } catch (error) {
    await deleteRecords('alerts', [indexKey(alert.id)]).catch(() => {}); // no index left pointing nowhere
    throw error;
  }
}

/** Puts back an alert taken for delivery whose push failed for a while (a 5xx, a time-out). */
export async function restoreAlert(alert: StoredAlert): Promise<void> {
  await writeRecord('alerts', indexKey(alert.id), AlertIndexSchema, { key: alertKey(alert) });
  await writeRecord('alerts', alertKey(alert), StoredAlertSchema, alert);
}

/** Deletes the alert with this id; whether there was one. */
export async function deleteAlert(id: string): Promise<boolean> {
  const index = await readRecord('alerts', indexKey(id), AlertIndexSchema);
  if (!index) return false;
  await deleteRecords('alerts', [index.key, indexKey(id)]);
  return true;
}

/** Keys of a park's alerts (every ride) not expired at `now`. */
export async function liveAlertKeys(park: string, now: number): Promise<string[]> {
  return (await listKeys('alerts', `${SUBS}${park}/`)).filter((key) => expiryOfKey(key) > now);
}

/** The alerts for one ride still live at `now`, with their keys. */
export async function liveAlerts(
  park: string,
  ride: number,
  now: number,
): Promise<{ key: string; alert: StoredAlert }[]> {
  const keys = (await listKeys('alerts', `${SUBS}${park}/${ride}/`)).filter((key) => expiryOfKey(key) > now);
  const read = await Promise.all(
    keys.map(async (key) => ({ key, alert: await readRecord('alerts', key, StoredAlertSchema) })),
  );
  return read.filter((entry): entry is { key: string; alert: StoredAlert } => entry.alert !== null);
}

/** Takes an alert out (record and index) before its push is sent, so no later run sends it again. */
export async function takeAlert(key: string): Promise<void> {
  await deleteRecords('alerts', [key, indexKey(idOfKey(key))]);
}

/** When the earliest of these keys expires. */
export const earliestExpiry = (keys: readonly string[]) => Math.min(...keys.map(expiryOfKey));

/** Deletes every alert expired at `now`, endpoint and index with it; how many. */
export async function sweepExpiredAlerts(now: number): Promise<number> {
  const expired = (await listKeys('alerts', SUBS)).filter((key) => expiryOfKey(key) <= now);
  if (expired.length > 0)
    await deleteRecords(
      'alerts',
      expired.flatMap((key) => [key, indexKey(idOfKey(key))]),
    );
  return expired.length;
}
