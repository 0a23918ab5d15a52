import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import type { WaitHistory } from '../../src/wait-times/day/history-schemas.ts';
import type { WaitTimes } from '../../src/wait-times/wait-times-schemas.ts';
import { PARK_WITH_DAY } from '../support/browser-harness.ts';

/**
 * The day charts of <park-waits> on a park page whose usual day and day so far the harness seeded
 * (a quarter busier than usual): the crowd level in words, a chart per ride with its sentence.
 */

const HALF_HOUR = 30 * 60_000;
const widget = (page: Page) => page.locator('park-waits');

async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

async function open(page: Page): Promise<{ live: WaitTimes; day: WaitHistory }> {
  await page.goto(`/parks/${PARK_WITH_DAY}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
  await expect(widget(page).locator('svg.park-chart')).toBeVisible();
  return {
    live: await api<WaitTimes>(page, `/api/wait-times?park=${PARK_WITH_DAY}`),
    day: await api<WaitHistory>(page, `/api/wait-times/history?park=${PARK_WITH_DAY}`),
  };
}

test('says how busy the park is in words and draws its day against the usual one', async ({ page }) => {
  const { day } = await open(page);
  expect(day.crowd.level).not.toBeNull();
  const words = {
    busier: /^Busier than usual today: waits are \d+ % longer than usual at these hours\.$/,
    quieter: /^Quieter than usual today: waits are \d+ % shorter than usual at these hours\.$/,
    usual: /^A usual day: waits are about as long as usual at these hours\.$/,
  } as const;
  await expect(widget(page).locator('[part="crowd"]')).toHaveText(words[day.crowd.level ?? 'usual']);
  await expect(
    widget(page).getByRole('img', { name: /^Average wait across rides today against a usual day/ }),
  ).toBeVisible();
  await expect(widget(page).locator('svg.park-chart path.today')).toHaveCount(1);
  await expect(widget(page).locator('svg.park-chart path.usual')).toHaveCount(1);
});

test('gives each ride a chart and says the same in words: now, usually at this hour, in half an hour', async ({
  page,
}) => {
  const { live, day } = await open(page);
  const nowIndex = Math.min(47, Math.max(0, 48 - Math.ceil((day.dayEndsAt - live.updatedAt) / HALF_HOUR)));
  const rows = widget(page).locator('tbody tr');
  await expect(rows).toHaveCount(live.rides.length);
  let checked = 0;
  for (const [index, ride] of [...live.rides].sort((a, b) => a.name.localeCompare(b.name)).entries()) {
    const usual = day.rides.find((entry) => entry.name === ride.name)?.usual[nowIndex] ?? null;
    const cell = rows.nth(index).getByRole('cell').nth(3);
    if (!ride.open || usual === null) continue;
    const soon = ride.forecast === null ? '' : `, about ${ride.forecast} in half an hour`;
    await expect(cell).toHaveText(`usually ${usual}${ride.wait} min now, usually ${usual} at this hour${soon}.`);
    await expect(cell.locator('svg.chart path.today')).toHaveCount(1);
    await expect(cell.locator('svg.chart path.now')).toHaveCount(1);
    checked += 1;
  }
  expect(checked).toBeGreaterThan(3);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the charts pass an axe check and keep the keyboard path in the ${colorScheme} theme (screenshots attached)`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000); // two layouts, each with an axe run, on a shared 2-core machine
    await page.emulateMedia({ colorScheme });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await open(page);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The charts are pictures, not controls: Tab goes from the checkbox straight to the sort.
      await widget(page).getByRole('checkbox', { name: 'Open rides only' }).focus();
      await page.keyboard.press('Tab');
      await expect(widget(page).getByRole('combobox', { name: 'Sort by' })).toBeFocused();
      const path = testInfo.outputPath(`day-${name}-${colorScheme}.png`);
      await widget(page).screenshot({ path });
      await testInfo.attach(`day-${name}-${colorScheme}`, { path, contentType: 'image/png' });
    }
  });
}
