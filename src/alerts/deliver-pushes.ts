import { getConfig } from '../platform/config.ts';
import type { ParkEvent } from '../wait-times/events/event-schemas.ts';
import type { PushPayload, StoredAlert } from './alert-schemas.ts';
import { liveAlerts, restoreAlert, sweepExpiredAlerts, takeAlert } from './alert-store.ts';
import { type PushOutcome, sendPush, topicOf } from './push-send.ts';
import { vapidKeys } from './vapid.ts';

// After each recorder run: the events it added, pushed to the alerts waiting for them (docs/alerts-push.md).

/** Pushes in flight at once: enough that 500 alerts of one park leave within the budget. */
const CONCURRENCY = 8;
/**
 * No push starts after this: a scheduled function stops at 30 s
 * (https://docs.netlify.com/build/functions/configuration) and the recorder ran first.
 */
const DELIVERY_BUDGET_MS = 12_000;

export interface PushReport {
  sent: number;
  /** Refused with 404 or 410: the browser dropped the subscription; the alert is deleted. */
  gone: number;
  /** A 5xx, 429 or time-out: the alert is kept for the next matching event. */
  failed: number;
  /** Matched, but left for a later event: the run's time was up. */
  deferred: number;
  /** Expired alerts deleted by the sweep. */
  expired: number;
}

/**
 * Whether `event` answers `alert`: its ride reopening for `reopened`; for `below`, a wait that fell
 * through a band (`wait-below`) or a reopening, with the posted wait at or below the alert's minutes.
 * Events come only when a wait crosses a band, so an alert between bands (25) is told at the next
 * band crossed below it (20), or at a reopening at or below it.
 */
export function matchesAlert(alert: StoredAlert, event: ParkEvent): boolean {
  if (event.park !== alert.park || event.ride?.id !== alert.ride) return false;
  if (alert.on === 'reopened') return event.type === 'ride-reopened';
  const below = alert.below ?? 0;
  return (
    (event.type === 'wait-below' || event.type === 'ride-reopened') && event.waitNow !== null && event.waitNow <= below
  );
}

/** What the service worker shows (public/sw.js): the event and the park page to open. */
export function pushPayloadOf(
  event: ParkEvent & { ride: NonNullable<ParkEvent['ride']> },
  siteUrl: string,
): PushPayload {
  return {
    type: event.type,
    ride: { id: event.ride.id, name: event.ride.name },
    waitNow: event.waitNow,
    url: new URL(`/parks/${event.park}/`, siteUrl).href,
  };
}

/** Runs `work` over `items`, `limit` at a time. */
async function inTurns<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Sends each alert matched by `events` its one push, then forgets it; deletes alerts whose push
 * service says the subscription is gone, and sweeps the expired. Never throws: a failure here must
 * not fail the recorder's run. An alert is taken out before its push is sent, so no later run (nor a
 * run overlapping this one) sends it twice; a push that failed for a while puts it back.
 */
export async function deliverPushes(events: readonly ParkEvent[], now = Date.now()): Promise<PushReport> {
  const report: PushReport = { sent: 0, gone: 0, failed: 0, deferred: 0, expired: 0 };
  try {
    report.expired = await sweepExpiredAlerts(now);
  } catch (error) {
    console.warn(`alerts: could not sweep expired alerts (${(error as Error).name})`);
  }
  let vapid: ReturnType<typeof vapidKeys>;
  try {
    vapid = vapidKeys();
  } catch (error) {
    console.error(`alerts: no pushes sent: ${(error as Error).message}`);
    return report;
  }
  if (!vapid || events.length === 0) return report;
  const keys = vapid;
  const { SITE_URL } = getConfig();
  const deadline = performance.now() + DELIVERY_BUDGET_MS;
  const count = (outcome: PushOutcome) => {
    report[outcome] += 1;
  };

  // The rides with events, each with its events newest first: the freshest wait is the one told.
  const byRide = new Map<string, { park: string; ride: number; events: ParkEvent[] }>();
  for (const event of events.toSorted((a, b) => b.at - a.at)) {
    if (!event.ride) continue;
    const key = `${event.park}/${event.ride.id}`;
    const entry = byRide.get(key) ?? { park: event.park, ride: event.ride.id, events: [] };
    entry.events.push(event);
    byRide.set(key, entry);
  }
  const due: { key: string; alert: StoredAlert; payload: PushPayload }[] = [];
  for (const { park, ride, events: newestFirst } of byRide.values()) {
    try {
      for (const { key, alert } of await liveAlerts(park, ride, now)) {
        const event = newestFirst.find((candidate) => matchesAlert(alert, candidate));
        if (event?.ride) due.push({ key, alert, payload: pushPayloadOf({ ...event, ride: event.ride }, SITE_URL) });
      }
    } catch (error) {
      console.warn(`alerts: could not read the alerts of ${park} ride ${ride} (${(error as Error).name})`);
    }
  }
  await inTurns(due, CONCURRENCY, async ({ key, alert, payload }) => {
    if (performance.now() > deadline) {
      report.deferred += 1;
      return;
    }
    try {
      await takeAlert(key);
    } catch {
      report.failed += 1; // still there: a later event may reach it
      return;
    }
    const topic = topicOf(alert.park, alert.ride);
    const urgency = payload.type === 'ride-reopened' ? 'high' : 'normal';
    const { outcome } = await sendPush(alert, payload, { vapid: keys, topic, urgency, now });
    count(outcome);
    if (outcome === 'failed') {
      await restoreAlert(alert).catch(() =>
        console.warn(`alerts: could not keep alert ${alert.id} after a failed push`),
      );
    }
  });
  if (report.sent + report.gone + report.failed + report.deferred > 0) {
    console.info(
      `alerts: pushed ${report.sent}, gone ${report.gone}, failed ${report.failed}, deferred ${report.deferred}, expired ${report.expired}`,
    );
  }
  return report;
}
