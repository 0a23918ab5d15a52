import { expect, type Page, test } from '@playwright/test';
import type { WaitHistory } from '../../src/wait-times/day/history-schemas.ts';
import type { WaitTimes } from '../../src/wait-times/wait-times-schemas.ts';
import { axeViolations } from '../support/axe.ts';
import { PARK_WITH_DAY } from '../support/browser-harness.ts';

/**
 * Rides down in <park-waits> on the park page whose day the harness seeded with three SYNTHETIC
 * outages (scripts/demo/seed-outages.mts: closed upstream for the last 10, 45 and 75 minutes) and a
 * made-up reopen table: the park's own odds, pooled odds, and none.
 */

const widget = (page: Page) => page.locator('park-waits');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The lines the seeded rides read, shortest outage first. */
const LINES = [
  'Down 10 min · about 55 % back within 30 min, from 412 outages',
  'Down 45 min · about 35 % back within 30 min, from 1,874 outages across all parks',
  'Down 1 h 15 min · too few outages recorded to give odds',
];

async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

/** The park page with its day drawn; the rides the history calls down, shortest outage first. */
async function open(page: Page) {
  await page.goto(`/parks/${PARK_WITH_DAY}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  await expect(widget(page).locator('svg.park-chart')).toBeVisible();
  const day = await api<WaitHistory>(page, `/api/wait-times/history?park=${PARK_WITH_DAY}`);
  const live = await api<WaitTimes>(page, `/api/wait-times?park=${PARK_WITH_DAY}`);
  const down = day.rides
    .filter((ride) => ride.down !== null)
    .sort((a, b) => (a.down?.minutes ?? 0) - (b.down?.minutes ?? 0));
  return { day, live, down };
}

test('the history serves the seeded rides down, with the park’s odds, pooled odds and none', async ({ page }) => {
  const { down, live } = await open(page);
  expect(down.map((ride) => ride.down?.minutes)).toEqual([10, 45, 75]);
  expect(down.map((ride) => ride.down?.scope)).toEqual(['park', 'all parks', 'all parks']);
  expect(down.map((ride) => ride.down?.reopenWithin?.['30'] ?? null)).toEqual([0.55, 0.35, null]);
  for (const ride of down) {
    expect(ride.outages).toEqual([{ from: ride.down?.since, to: null, minutes: ride.down?.minutes, censored: null }]);
    // The live waits agree: closed, so the widget may call them down.
    expect(live.rides.find((entry) => entry.name === ride.name)?.open).toBe(false);
  }
});

test('each ride down says how long, and its chance of being back within 30 minutes or plainly none', async ({
  page,
}) => {
  const { down } = await open(page);
  const lines = widget(page).locator('tbody th .outage');
  await expect(lines).toHaveCount(3);
  for (const [index, ride] of down.entries()) {
    // The row whose header is the ride's name followed by its line (names may start alike).
    const header = page.locator('th', { hasText: new RegExp(`^${escaped(ride.name)}Down`) });
    const row = widget(page).locator('tbody tr').filter({ has: header });
    await expect(row.locator('.outage')).toHaveText(LINES[index] ?? '');
    await expect(row.getByRole('cell').first()).toHaveText('Down');
    await expect(row).toHaveAttribute('part', 'row closed-row down-row');
  }
  // Only rides down say so: a ride merely closed keeps "Closed" and no line.
  const closedRows = widget(page).locator('tbody tr[part="row closed-row"]');
  for (const row of await closedRows.all()) {
    await expect(row.locator('.outage')).toHaveCount(0);
    await expect(row.getByRole('cell').first()).toHaveText('Closed');
  }
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`rides down read well at 390 px in the ${colorScheme} theme: axe-clean, no overflow (screenshot attached)`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000); // an axe run on a shared 2-core machine
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page);
    const first = widget(page).locator('tbody th .outage').first();
    await expect(first).toBeVisible();
    // The warning colour, not the muted one of a closed row.
    expect(await first.evaluate((node) => getComputedStyle(node).color)).not.toBe(
      await first.evaluate((node) => getComputedStyle(node.closest('tr') as Element).color),
    );
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const row = widget(page).locator('tbody tr[part~="down-row"]').first();
    const path = testInfo.outputPath(`down-phone-${colorScheme}.png`);
    await row.screenshot({ path });
    await testInfo.attach(`down-phone-${colorScheme}`, { path, contentType: 'image/png' });
  });
}
