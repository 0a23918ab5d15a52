import type { WaitTimes } from '../wait-times/wait-times-schemas.ts';

/**
 * "Tell me when" on a park page (src/pages/parks/[slug].astro): a push alert for one ride, once,
 * until the park closes (docs/alerts-push.md). Shown only when the site has VAPID keys (GET
 * /api/alerts/key answers 200). Not part of the embeddable widget: a push subscription belongs to
 * the origin that made it, so only this site's own pages can offer it.
 */

interface KeptAlert {
  id: string;
  rideName: string;
  on: 'reopened' | 'below';
  below: number | null;
  expiresAt: number;
}

const storageKey = (park: string) => `park-alerts:${park}`;

function keptAlerts(park: string): KeptAlert[] {
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey(park)) ?? '[]') as KeptAlert[];
    return Array.isArray(kept) ? kept.filter((alert) => alert.expiresAt > Date.now()) : [];
  } catch {
    return [];
  }
}

function keepAlerts(park: string, alerts: readonly KeptAlert[]): void {
  try {
    localStorage.setItem(storageKey(park), JSON.stringify(alerts));
  } catch {
    // private mode: the alert still works, the page just forgets it
  }
}

/** The VAPID key as `applicationServerKey` takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** This browser's subscription for `key`; one made with another key (the site's keys changed) is replaced. */
async function subscribed(manager: PushManager, key: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  const existing = await manager.getSubscription();
  const existingKey = existing?.options.applicationServerKey;
  const same = existingKey && new Uint8Array(existingKey).every((byte, index) => byte === key[index]);
  if (existing && same && existingKey.byteLength === key.byteLength) return existing;
  await existing?.unsubscribe();
  return manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

const wording = (alert: KeptAlert) =>
  alert.on === 'reopened'
    ? `when ${alert.rideName} reopens`
    : `when ${alert.rideName} is at ${alert.below} min or less`;
const until = (at: number) => new Date(at).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/**
 * The waits the page's widget shows, once it has them (its `state` attribute says when): the page
 * asks GET /api/wait-times once, for both. Null when the widget ends without data.
 */
function widgetWaits(): Promise<WaitTimes | null> {
  const widget = document.querySelector('park-waits') as (HTMLElement & { waits?: WaitTimes | null }) | null;
  if (!widget) return Promise.resolve(null);
  return new Promise((resolve) => {
    const settle = () => {
      const waits = widget.waits ?? null;
      if (!waits && widget.getAttribute('state') !== 'error') return false;
      resolve(waits);
      return true;
    };
    if (settle()) return;
    const observer = new MutationObserver(() => settle() && observer.disconnect());
    observer.observe(widget, { attributes: true, attributeFilter: ['state'] });
  });
}

async function start(section: HTMLElement): Promise<void> {
  const park = section.dataset.park ?? '';
  const key = await fetch('/api/alerts/key').catch(() => null);
  if (!key?.ok) return; // no VAPID keys: no alerts offered
  const { publicKey } = (await key.json()) as { publicKey: string };
  const form = section.querySelector('form') as HTMLFormElement;
  const status = section.querySelector('[role="status"]') as HTMLElement;
  const list = section.querySelector('ul') as HTMLUListElement;
  section.hidden = false;
  const say = (text: string) => {
    status.textContent = text;
  };
  if (!('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window)) {
    form.hidden = true;
    say('This browser cannot receive notifications from this page.');
    return;
  }

  const render = () => {
    list.replaceChildren(
      ...keptAlerts(park).map((alert) => {
        const item = document.createElement('li');
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.textContent = 'Cancel';
        cancel.setAttribute('aria-label', `Cancel the alert ${wording(alert)}`);
        cancel.addEventListener('click', async () => {
          const answer = await fetch(`/api/alerts/${encodeURIComponent(alert.id)}`, { method: 'DELETE' }).catch(
            () => null,
          );
          if (!answer || (answer.status !== 204 && answer.status !== 404))
            return say('Could not cancel it; try again.');
          keepAlerts(
            park,
            keptAlerts(park).filter((kept) => kept.id !== alert.id),
          );
          render();
          say(`Cancelled: no notification ${wording(alert)}.`);
        });
        item.append(`Notify me ${wording(alert)} (until ${until(alert.expiresAt)}) `, cancel);
        return item;
      }),
    );
  };
  render();

  const rides = form.elements.namedItem('ride') as HTMLSelectElement;
  const body = await widgetWaits();
  for (const ride of body?.rides ?? []) {
    const label = ride.open ? `${ride.name} (${ride.wait} min)` : `${ride.name} (closed)`;
    rides.append(new Option(label, String(ride.id)));
  }
  if (rides.options.length === 0) {
    form.hidden = true;
    return say(
      body
        ? 'No rides are listed now (the park is closed): come back when it opens.'
        : 'The rides could not be loaded; reload the page to set an alert.',
    );
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const on = data.get('on') === 'below' ? 'below' : 'reopened';
    const below = Number(data.get('below'));
    const rideName = body?.rides.find((ride) => String(ride.id) === rides.value)?.name ?? 'the ride';
    // Asked first, inside the click: iOS grants permission only from a user gesture.
    const permission = await Notification.requestPermission();
    if (permission !== 'granted')
      return say('Notifications are blocked for this site: allow them in the browser settings.');
    say('Setting the alert…');
    try {
      const registration = await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
      const subscription = await subscribed(registration.pushManager, keyBytes(publicKey));
      const answer = await fetch('/api/alerts', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ subscription: subscription.toJSON(), park, ride: Number(rides.value), on, below }),
      });
      if (answer.status === 429) return say('Too many alerts for now; try again later.');
      if (answer.status !== 201) return say('The alert could not be set right now.');
      const { id, expiresAt } = (await answer.json()) as { id: string; expiresAt: number };
      const alert: KeptAlert = { id, rideName, on, below: on === 'below' ? below : null, expiresAt };
      keepAlerts(park, [...keptAlerts(park), alert]);
      render();
      say(`Done: one notification ${wording(alert)}, until ${until(expiresAt)}.`);
    } catch {
      say('This browser could not subscribe to notifications.');
    }
  });
}

const section = document.querySelector<HTMLElement>('#notify');
if (section) void start(section);
