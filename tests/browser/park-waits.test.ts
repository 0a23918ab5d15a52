import { expect, type Page, type Request, type TestInfo, test } from '@playwright/test';
import type { WaitTimes } from '../../src/wait-times/wait-times-schemas.ts';
import { axeViolations } from '../support/axe.ts';
import { EMBEDDER_PORT, PARK_WITH_HISTORY } from '../support/browser-harness.ts';
import { steerUpstream } from '../support/upstream-control.ts';

/**
 * The <park-waits> element on the site's park pages, against the built site and the fake
 * queue-times (steered through its control endpoint, never the site). Each state uses a park no
 * other test fetches, because the site keeps what it fetched.
 */

const TREND_WORDS = { up: 'rising', down: 'falling', flat: 'steady' } as const;
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const widget = (page: Page) => page.locator('park-waits');
const rows = (page: Page) => page.locator('park-waits tbody tr');
const status = (page: Page) => widget(page).getByRole('status');
const attribution = (page: Page) => widget(page).getByRole('link', { name: 'Powered by Queue-Times.com' });

async function waitTimes(page: Page, slug: string): Promise<WaitTimes> {
  const response = await page.request.get(`/api/wait-times?park=${slug}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as WaitTimes;
}

/**
 * Timers fired by the fake clock call fetch() synchronously, and the page reports a request before
 * it answers a later evaluate: after this, every request the timers made has been seen.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => 0);
}

/** Saves and attaches a picture of the element, for a person to look at. */
async function picture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await widget(page).screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function expectAttribution(page: Page): Promise<void> {
  await expect(attribution(page)).toBeVisible();
  await expect(attribution(page)).toHaveAttribute('href', 'https://queue-times.com/');
}

test.beforeEach(() => steerUpstream({ reset: true }));
test.afterEach(() => steerUpstream({ reset: true }));

test('a park page lists every ride with its wait, open state, trend and forecast, styled under the CSP, without console errors', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const response = await page.goto('/parks/epcot/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('EPCOT wait times');
  await expect(widget(page)).toHaveAttribute('state', 'ready');

  const data = await waitTimes(page, 'epcot');
  expect(data.rides.length).toBeGreaterThan(0);
  await expect(rows(page)).toHaveCount(data.rides.length);
  const byName = [...data.rides].sort((a, b) => a.name.localeCompare(b.name));
  for (const [index, ride] of byName.entries()) {
    const row = rows(page).nth(index);
    await expect(row.getByRole('rowheader')).toHaveText(ride.name);
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(ride.open ? `${ride.wait} min` : 'Closed');
    await expect(cells.nth(1)).toHaveAccessibleName(ride.open ? TREND_WORDS[ride.trend] : 'none');
    await expect(cells.nth(2)).toHaveAccessibleName(ride.forecast === null ? 'no forecast' : `${ride.forecast} min`);
  }
  await expect(widget(page).getByRole('table')).toHaveAccessibleName('Rides at EPCOT');
  await expect(widget(page).locator('[part="age"]')).toHaveText(/^Updated (just now|\d+ min ago)$/);
  await expect(status(page)).toHaveText('');
  await expectAttribution(page);
  // The shadow root's stylesheet applies although the page's CSP allows no inline styles.
  await expect(widget(page).locator('table')).toHaveCSS('border-collapse', 'collapse');
  expect(errors).toEqual([]);
});

test('trend arrows say rising, falling or steady to assistive technology', async ({ page }) => {
  await page.goto(`/parks/${PARK_WITH_HISTORY}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  const data = await waitTimes(page, PARK_WITH_HISTORY);
  const open = data.rides.filter((ride) => ride.open);
  const count = (trend: keyof typeof TREND_WORDS) => open.filter((ride) => ride.trend === trend).length;
  // The harness seeded a sample from 30 minutes ago, so both directions are there to show.
  expect(count('up')).toBeGreaterThan(0);
  expect(count('down')).toBeGreaterThan(0);

  const table = widget(page).getByRole('table');
  for (const [trend, arrow] of [
    ['up', '↑'],
    ['down', '↓'],
    ['flat', '→'],
  ] as const) {
    const cells = table.getByRole('cell', { name: TREND_WORDS[trend], exact: true });
    await expect(cells).toHaveCount(count(trend));
    if (count(trend) > 0) await expect(cells.first().locator('[aria-hidden="true"]')).toHaveText(arrow);
  }
});

test('open rides only and sorting by wait work from the keyboard', async ({ page }) => {
  await page.goto(`/parks/${PARK_WITH_HISTORY}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  const data = await waitTimes(page, PARK_WITH_HISTORY);
  const open = data.rides.filter((ride) => ride.open);
  expect(open.length).toBeLessThan(data.rides.length);

  const checkbox = widget(page).getByRole('checkbox', { name: 'Open rides only' });
  await checkbox.focus();
  await page.keyboard.press('Space');
  await expect(checkbox).toBeChecked();
  await expect(widget(page)).toHaveAttribute('open-only', '');
  await expect(rows(page)).toHaveCount(open.length);

  await page.keyboard.press('Tab');
  const sort = widget(page).getByRole('combobox', { name: 'Sort by' });
  await expect(sort).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(sort).toHaveValue('wait-desc');
  await expect(widget(page)).toHaveAttribute('sort', 'wait-desc');
  const longestFirst = [...open].sort((a, b) => b.wait - a.wait || a.name.localeCompare(b.name));
  await expect(rows(page).getByRole('rowheader')).toHaveText(longestFirst.map((ride) => ride.name));

  await page.keyboard.press('ArrowDown');
  await expect(sort).toHaveValue('wait-asc');
  const shortestFirst = [...open].sort((a, b) => a.wait - b.wait || a.name.localeCompare(b.name));
  await expect(rows(page).getByRole('rowheader')).toHaveText(shortestFirst.map((ride) => ride.name));
});

test('while the first answer is on its way the element says it is loading, credit included', async ({
  page,
}, testInfo) => {
  await steerUpstream({ delayMs: 4_000 });
  await page.goto('/parks/zetawood/');
  await expect(widget(page)).toHaveAttribute('state', 'loading');
  await expect(widget(page)).toHaveAttribute('aria-busy', 'true');
  await expect(status(page)).toHaveText('Loading wait times…');
  await expect(widget(page).getByRole('table')).toBeHidden();
  await expectAttribution(page);
  await picture(page, testInfo, 'state-loading');

  await expect(widget(page)).toHaveAttribute('state', 'ready', { timeout: 15_000 });
  await expect(widget(page)).toHaveAttribute('aria-busy', 'false');
  await expect(rows(page).first()).toBeVisible();
});

test('a closed park (no rides upstream) gets a clear message instead of an empty table', async ({ page }, testInfo) => {
  await steerUpstream({ payloads: { 67: { lands: [], rides: [] } } });
  await page.goto('/parks/volcano-bay/');
  await expect(widget(page)).toHaveAttribute('state', 'closed');
  await expect(status(page)).toHaveText('No live waits: the park is closed.');
  await expect(widget(page).getByRole('table')).toBeHidden();
  await expect(widget(page).getByRole('checkbox')).toBeHidden();
  await expect(widget(page).locator('[part="age"]')).toHaveText(/^Updated /);
  await expectAttribution(page);
  await picture(page, testInfo, 'state-closed');
});

test('with the upstream down and nothing to fall back on, the element explains and still credits the provider', async ({
  page,
}, testInfo) => {
  await steerUpstream({ mode: 'error-500' });
  // The live waits (the day beside them reads only what was recorded: an empty day, 200).
  const answered = page.waitForResponse((response) =>
    response.url().includes('/api/wait-times?park=delta-gardens-tampa'),
  );
  await page.goto('/parks/delta-gardens-tampa/');
  expect((await answered).status()).toBe(502);
  await expect(widget(page)).toHaveAttribute('state', 'error');
  await expect(status(page)).toHaveText('Wait times are unavailable right now. Trying again shortly.');
  await expect(widget(page).getByRole('table')).toBeHidden();
  await expect(widget(page).locator('[part="age"]')).toHaveText('');
  await expectAttribution(page);
  await picture(page, testInfo, 'state-error');
});

test('offline, the last data stays with its age, survives a new element from localStorage, and refreshes once back online', async ({
  page,
  context,
}, testInfo) => {
  await page.clock.install({ time: Date.now() });
  await page.goto('/parks/epcot/');
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(0);

  await context.setOffline(true);
  await page.clock.fastForward('06:00'); // the next refresh falls due and cannot reach the site
  await expect(widget(page)).toHaveAttribute('state', 'stale');
  await expect(status(page)).toHaveText('You are offline. Showing the last wait times.');
  await expect(widget(page).locator('[part="age"]')).toHaveText(/^Updated \d+ min ago — couldn’t refresh$/);
  await expect(rows(page)).toHaveCount(count);
  await expectAttribution(page);
  await picture(page, testInfo, 'state-stale');

  // A new element (as after a reload) starts from the copy it saved.
  await page.evaluate(() => {
    const fresh = document.createElement('park-waits');
    fresh.setAttribute('park', 'epcot');
    document.querySelector('park-waits')?.replaceWith(fresh);
  });
  await expect(widget(page)).toHaveAttribute('state', 'stale');
  await expect(rows(page)).toHaveCount(count);

  await context.setOffline(false);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  await expect(status(page)).toHaveText('');
});

test('refreshes when the data turns 5 minutes old, and never more often than once a minute', async ({ page }) => {
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/wait-times?park=epcot')) asked.push(request);
  });
  await page.clock.install({ time: Date.now() });
  await page.goto('/parks/epcot/');
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  expect(asked).toHaveLength(1);
  const first = (await (await asked[0]?.response())?.json()) as WaitTimes;
  const pageNow = await page.evaluate(() => Date.now());
  // Due when the API's copy turns 5 minutes old, at least a minute after the last request.
  const dueIn = Math.min(Math.max(first.updatedAt + 5 * 60_000 - pageNow, 60_000), 5 * 60_000);

  await page.clock.fastForward(dueIn - 3_000);
  await settle(page);
  expect(asked).toHaveLength(1);
  await page.clock.fastForward(9_000); // covers the up-to-5-second spread
  await expect.poll(() => asked.length).toBe(2);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  // The next look is timed from when this answer is taken in: the clock may only move on after that
  // (on a busy machine the answer could otherwise land after the next minute had been skipped).
  await (await asked[1]?.response())?.finished();
  await settle(page);

  // The site's copy is older than 5 minutes by the page's clock now: one minute is the floor.
  await page.clock.fastForward(58_000);
  await settle(page);
  expect(asked).toHaveLength(2);
  await page.clock.fastForward(8_000);
  await expect.poll(() => asked.length).toBe(3);
});

test('while the page is hidden it asks nothing, and catches up as soon as it is shown again', async ({ page }) => {
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/wait-times?park=epcot')) asked.push(request);
  });
  await page.clock.install({ time: Date.now() });
  await page.goto('/parks/epcot/');
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  expect(asked).toHaveLength(1);

  // Headless Chromium keeps every tab visible and has no switch for it, so the page's visibility
  // is set by hand here, the way the browser reports it: the property and the event.
  const setHidden = (hidden: boolean) =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => (value ? 'hidden' : 'visible'),
      });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  await page.clock.fastForward('20:00');
  await settle(page);
  expect(asked).toHaveLength(1);

  await setHidden(false);
  await expect.poll(() => asked.length).toBe(2);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
});

test('a moved or re-created element keeps using data younger than 5 minutes without asking again', async ({ page }) => {
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/wait-times?park=epcot')) asked.push(request);
  });
  const { updatedAt } = await waitTimes(page, 'epcot');
  await page.clock.install({ time: updatedAt + 60_000 }); // the page sees a one-minute-old copy
  await page.goto('/parks/epcot/');
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  expect(asked).toHaveLength(1);
  const count = await rows(page).count();

  await page.evaluate(() => {
    const element = document.querySelector('park-waits');
    if (element) document.body.append(element); // moved: disconnected, then connected again
  });
  await page.evaluate(() => {
    const fresh = document.createElement('park-waits');
    fresh.setAttribute('park', 'epcot');
    document.querySelector('park-waits')?.replaceWith(fresh); // re-created: starts from the saved copy
  });
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  await expect(rows(page)).toHaveCount(count);
  await settle(page);
  expect(asked).toHaveLength(1);
});

test("embedded on another site, it reads the API where the script came from and takes the page's colours and settings", async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${EMBEDDER_PORT}/`);
  const [known, unknown] = [widget(page).first(), widget(page).nth(1)];
  await expect(known).toHaveAttribute('state', 'ready');
  const data = await waitTimes(page, 'epcot');
  const longestFirst = data.rides
    .filter((ride) => ride.open)
    .sort((a, b) => b.wait - a.wait || a.name.localeCompare(b.name));
  await expect(known.locator('tbody th')).toHaveText(longestFirst.map((ride) => ride.name));
  await expect(known.getByRole('checkbox', { name: 'Open rides only' })).toBeChecked();
  await expect(known.getByRole('combobox', { name: 'Sort by' })).toHaveValue('wait-desc');
  // The embedding page's custom properties reach into the shadow root.
  await expect(known.getByRole('link', { name: 'Powered by Queue-Times.com' })).toHaveCSS('color', 'rgb(128, 0, 96)');
  await expect(known).toHaveCSS('background-color', 'rgb(255, 250, 240)');

  await expect(unknown).toHaveAttribute('state', 'error');
  await expect(unknown.getByRole('status')).toHaveText('Unknown park “atlantis”.');
  await expect(unknown.getByRole('link', { name: 'Powered by Queue-Times.com' })).toBeVisible();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the park page and the park list pass an axe check in the ${colorScheme} theme`, async ({ page }) => {
    test.setTimeout(90_000); // two axe runs on a shared 2-core machine
    await page.emulateMedia({ colorScheme });
    await page.goto(`/parks/${PARK_WITH_HISTORY}/`);
    await expect(widget(page)).toHaveAttribute('state', 'ready');
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/parks/');
    await expect(page.getByRole('link', { name: 'EPCOT' })).toHaveAttribute('href', '/parks/epcot/');
    expect(await axeViolations(page)).toEqual([]);
  });
}

for (const [name, viewport] of [
  ['desktop', WIDE],
  ['phone', PHONE],
] as const) {
  test(`the ${name} layout fits the screen in both themes (screenshots attached)`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`/parks/${PARK_WITH_HISTORY}/`);
      await expect(widget(page)).toHaveAttribute('state', 'ready');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const path = testInfo.outputPath(`park-${name}-${colorScheme}.png`);
      await page.screenshot({ path, fullPage: true });
      await testInfo.attach(`park-${name}-${colorScheme}`, { path, contentType: 'image/png' });
    }
  });
}
