// The site's service worker: it only shows push alerts (docs/alerts-push.md). No fetch handler, so
// pages load exactly as without it. Plain JavaScript, served as is: nothing to build.

/** The notification for a push payload `{ type, ride: { id, name }, waitNow, url }`. */
function notificationOf(data) {
  const name = data?.ride?.name || 'A ride';
  const wait = Number.isInteger(data?.waitNow) ? data.waitNow : null;
  const waitText = wait === null ? '' : `Posted wait: ${wait} min.`;
  if (data?.type === 'ride-reopened') return { title: `${name} has reopened`, body: waitText };
  if (data?.type === 'wait-below')
    return { title: `${name}: ${wait ?? '?'} min wait`, body: 'The wait you asked about.' };
  return { title: name, body: waitText || 'News from the park.' };
}

self.addEventListener('push', (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null; // still show something: Safari ends a subscription whose push shows nothing
  }
  const { title, body } = notificationOf(data);
  const url = typeof data?.url === 'string' ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      icon: '/favicon.svg',
      // One notification per ride: a newer one replaces an unread older one.
      tag: `ride-${data?.ride?.id ?? 'unknown'}`,
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only pages of this site are opened, whatever a payload says.
  const wanted = new URL(event.notification.data?.url || '/', self.location.origin);
  const url = wanted.origin === self.location.origin ? wanted.href : self.location.origin;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
