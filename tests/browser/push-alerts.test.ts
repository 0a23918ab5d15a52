import { createECDH, randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from '../support/axe.ts';
import { STUB_PUSH_ORIGIN } from '../support/browser-harness.ts';

/**
 * Push alerts on a park page (docs/alerts-push.md): the "Tell me when" form, set and cancelled
 * against the real site, and the service worker showing what a push delivers. The browser cannot
 * reach a real push service here, so `PushManager.subscribe` is stubbed with a subscription on
 * STUB_PUSH_ORIGIN, which the harness allows; the push itself comes through the DevTools Protocol
 * (`ServiceWorker.deliverPushMessage`), as a push service would hand it to the browser.
 */

const PARK = 'epcot';
const notify = (page: Page) => page.locator('#notify');

/** A browser's push subscription as `toJSON()` gives it, with real P-256 keys. */
function stubSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `${STUB_PUSH_ORIGIN}/push/browser-test-${randomBytes(4).toString('hex')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

async function openWithStubbedPush(page: Page): Promise<void> {
  await page.context().grantPermissions(['notifications']);
  await page.addInitScript((subscription) => {
    const stub = { ...subscription, toJSON: () => subscription };
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async () => stub as unknown as PushSubscription;
  }, stubSubscription());
  await page.goto(`/parks/${PARK}/`);
  await expect(notify(page)).toBeVisible();
}

test('a park page sets an alert for one ride and cancels it, saying what it does', async ({ page }) => {
  await openWithStubbedPush(page);
  await expect(notify(page)).toContainText('iOS 16.4 or later');
  await expect(notify(page)).toContainText('added to the Home Screen');
  const rides = notify(page).getByLabel('Ride');
  await expect(rides.locator('option')).not.toHaveCount(0);
  const chosen = (await rides.locator('option').nth(1).textContent()) ?? '';
  const rideName = chosen.replace(/ \((closed|\d+ min)\)$/, '');
  await rides.selectOption({ index: 1 });
  await notify(page).getByLabel('when its wait is at or below').check();
  await notify(page).getByLabel('Minutes').selectOption('30');

  const posted = page.waitForResponse((response) => response.url().endsWith('/api/alerts'));
  await notify(page).getByRole('button', { name: 'Notify me' }).click();
  const response = await posted;
  expect(response.status()).toBe(201);
  const request = response.request().postDataJSON() as Record<string, unknown>;
  expect(request).toMatchObject({ park: PARK, on: 'below', below: 30 });
  expect(Number.isInteger(request.ride)).toBe(true);
  await expect(notify(page).getByRole('status')).toContainText(
    `Done: one notification when ${rideName} is at 30 min or less`,
  );

  // Kept across a reload, then cancelled: DELETE answers 204 and the list empties.
  await page.reload();
  const cancel = notify(page).getByRole('button', { name: `Cancel the alert when ${rideName} is at 30 min or less` });
  await expect(cancel).toBeVisible();
  const deleted = page.waitForResponse((answer) => answer.request().method() === 'DELETE');
  await cancel.click();
  expect((await deleted).status()).toBe(204);
  await expect(notify(page).getByRole('status')).toContainText('Cancelled');
  await expect(notify(page).locator('li')).toHaveCount(0);
});

test('without VAPID keys the page offers no alerts', async ({ page }) => {
  await page.route('**/api/alerts/key', (route) => route.fulfill({ status: 503, body: '{"error":"off"}' }));
  await page.goto(`/parks/${PARK}/`);
  await expect(page.locator('park-waits')).toHaveAttribute('state', 'ready');
  await expect(notify(page)).toBeHidden();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the form fits 390 px and has no accessibility violations (${colorScheme}, screenshot attached)`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme });
    await openWithStubbedPush(page);
    await expect(notify(page).getByLabel('Ride').locator('option')).not.toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The whole page, with the form shown: it must not spoil the page around it either.
    await expect(page.locator('park-waits')).toHaveAttribute('state', 'ready');
    expect(await axeViolations(page)).toEqual([]);
    const path = testInfo.outputPath(`notify-390-${colorScheme}.png`);
    await notify(page).screenshot({ path });
    await testInfo.attach(`notify-390-${colorScheme}`, { path, contentType: 'image/png' });
  });
}

test('the site has a web app manifest for the Home Screen', async ({ page }) => {
  await page.goto(`/parks/${PARK}/`);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(href ?? '')).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/parks/' });
});

/** The service worker's notifications, as the page sees them. */
const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map(({ title, body, tag, data }) => ({ title, body, tag, data }));
  });

test('the service worker shows the notification a push delivers', async ({ page, baseURL }) => {
  await page.context().grantPermissions(['notifications']);
  await page.goto(`/parks/${PARK}/`);
  const cdp = await page.context().newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${baseURL}/`);
      if (ours && !ours.isDeleted) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
  });
  const registrationId = await registered;
  const url = `${baseURL}/parks/${PARK}/`;
  const deliver = (data: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: `${baseURL}`, registrationId, data });

  await deliver(JSON.stringify({ type: 'ride-reopened', ride: { id: 159, name: 'Test Track' }, waitNow: 15, url }));
  // A busy machine is slow to wake the worker: up to 15 s, not the default 5.
  await expect
    .poll(() => shownNotifications(page), { timeout: 15_000 })
    .toEqual([{ title: 'Test Track has reopened', body: 'Posted wait: 15 min.', tag: 'ride-159', data: { url } }]);

  // A wait alert for another ride shows beside it; a payload that cannot be read still shows something.
  await deliver(JSON.stringify({ type: 'wait-below', ride: { id: 7, name: 'Soarin’' }, waitNow: 20, url }));
  await deliver('not json');
  await expect
    .poll(async () => (await shownNotifications(page)).map(({ title }) => title).sort(), { timeout: 15_000 })
    .toEqual(['A ride', 'Soarin’: 20 min wait', 'Test Track has reopened']);
});
