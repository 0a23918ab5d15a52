import { expect, type Page, type Request, type TestInfo, test } from '@playwright/test';
import type { WaitHistory } from '../../src/wait-times/day/history-schemas.ts';
import { crowdText } from '../../src/widget/crowd-line.ts';
import { axeViolations } from '../support/axe.ts';
import { PARK_WITH_DAY, PARK_WITH_HISTORY } from '../support/browser-harness.ts';

/**
 * The scorecard where people look (issue 44, points 3 and 8): the park page's widget shows one line
 * and a chart by horizon from GET /api/accuracy?park=<slug>, and the parks index gives each park's
 * hours today, whether it is open, its crowd level and its 28-day skill at 30 minutes. The grades are SYNTHETIC,
 * seeded by the harness (tests/support/browser-site.mts, seedGrades): PARK_WITH_DAY has ten days,
 * 4,210 graded at 30 minutes 12 % closer than no change, 60 minutes 5 % further, 120 minutes only
 * 20 graded; PARK_WITH_HISTORY one day of 25 at 30 minutes.
 */

const PHONE = { width: 390, height: 844 };
const LINE = 'Forecasts here, last 28 days: 12 % closer than no change at 30 minutes, 4,210 graded';

const widget = (page: Page) => page.locator('park-waits');
const accuracy = (page: Page) => widget(page).locator('[part="accuracy"]');

async function openPark(page: Page, slug: string): Promise<void> {
  await page.goto(`/parks/${slug}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
}

async function picture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('the park page says how close its forecasts came, with a chart by horizon read out in words', async ({ page }) => {
  await openPark(page, PARK_WITH_DAY);
  await expect(accuracy(page).locator('.skill-line')).toHaveText(LINE);
  const chart = accuracy(page).getByRole('img');
  await expect(chart).toHaveAttribute('aria-label', /^Forecast skill against no change by horizon, last 28 days: /);
  const label = (await chart.getAttribute('aria-label')) ?? '';
  expect(label).toMatch(/30 min: 12 % \(95 % interval 1\d % to 1\d %\)/);
  expect(label).toMatch(/60 min: −5 % \(95 % interval −\d+ % to −\d+ %\)/);
  expect(label).toContain('120 min: too few graded (20)');
  // Bars for the horizons with a skill, each with its interval; nothing made up for the third.
  await expect(chart.locator('.bar')).toHaveCount(2);
  await expect(chart.locator('.whisker')).toHaveCount(2);
});

test('a park with too few graded forecasts says so, without a chart', async ({ page }) => {
  await openPark(page, PARK_WITH_HISTORY);
  await expect(accuracy(page)).toHaveText('Forecasts here: too few graded yet (25)');
  await expect(accuracy(page).locator('.skill-legend')).toHaveCount(0);
  await expect(accuracy(page).getByRole('img')).toHaveCount(0);
});

test('the scorecard is asked once at the start, then at most hourly, beside the 5-minute refreshes', async ({
  page,
}) => {
  const asked: Request[] = [];
  const waits: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/accuracy?park=')) asked.push(request);
  });
  // Counted once answered: moving the clock while a refresh is in flight would leave the next one
  // scheduled from a time the test has already passed.
  page.on('requestfinished', (request) => {
    if (request.url().includes('/api/wait-times?park=')) waits.push(request);
  });
  await page.clock.install({ time: Date.now() });
  await openPark(page, PARK_WITH_DAY);
  await expect(accuracy(page).locator('.skill-line')).toHaveText(LINE);
  expect(asked).toHaveLength(1);
  const firstAskedAt = await page.evaluate(() => Date.now());
  // The clock moves a minute at a time until each refresh has come (one is due when the data turns 5
  // minutes old), so a refresh still being read never leaves the next one behind the clock.
  const minuteByMinuteUntil = (requests: Request[], count: number) =>
    expect
      .poll(
        async () => {
          if (requests.length < count) await page.clock.fastForward('01:00');
          return requests.length;
        },
        { timeout: 30_000 },
      )
      .toBe(count);
  await minuteByMinuteUntil(waits, 2);
  await minuteByMinuteUntil(waits, 3);
  expect(asked).toHaveLength(1);
  await page.clock.fastForward('45:00');
  expect(asked).toHaveLength(1);
  await minuteByMinuteUntil(asked, 2);
  // Asked again with a refresh once the hour is up, not before (the clock moved a minute at a time).
  const hours = ((await page.evaluate(() => Date.now())) - firstAskedAt) / 3_600_000;
  expect(hours).toBeGreaterThanOrEqual(1);
  expect(hours).toBeLessThan(1 + 7 / 60);
});

test('a failed scorecard costs the line only: the table and credits stay', async ({ page }) => {
  await page.route('**/api/accuracy?**', (route) => route.fulfill({ status: 503, body: 'down' }));
  await openPark(page, PARK_WITH_DAY);
  await expect(widget(page).locator('tbody tr').first()).toBeVisible();
  await expect(accuracy(page)).toBeHidden();
  await expect(widget(page).getByRole('link', { name: 'Powered by Queue-Times.com' })).toBeVisible();
});

test('the parks index gives each park its hours today, whether it is open and its 28-day skill', async ({ page }) => {
  await page.goto('/parks/');
  const day = page.locator(`li[data-park="${PARK_WITH_DAY}"]`);
  await expect(day.locator('.park-skill')).toHaveText(
    'Forecasts, last 28 days: 12 % closer than no change at 30 min, 4,210 graded',
  );
  await expect(page.locator(`li[data-park="${PARK_WITH_HISTORY}"] .park-skill`)).toHaveText(
    'Forecasts: too few graded yet (25)',
  );
  await expect(page.locator('li[data-park="epcot"] .park-skill')).toHaveText('Forecasts: too few graded yet (0)');
  // EPCOT's hours come from the harness's fake ThemeParks.wiki (SYNTHETIC).
  await expect(page.locator('li[data-park="epcot"] .park-hours')).toHaveText(
    /^(Open|Closed) now · today \d{1,2}:\d{2}\s?(AM|PM)?–\d{1,2}:\d{2}\s?(AM|PM)?$/,
  );
  await expect(page.locator('body > footer')).toContainText('Powered by Queue-Times.com');
  await expect(page.locator('body > footer')).toContainText('Park hours: ThemeParks.wiki');
});

test('the parks index says how busy each park is today against its usual day', async ({ page }) => {
  const answer = await page.request.get(`/api/wait-times/history?park=${PARK_WITH_DAY}`);
  const { crowd } = (await answer.json()) as WaitHistory;
  // The harness seeded that park's day a quarter busier than its usual one: a level in words.
  expect(crowd.level).not.toBeNull();
  await page.goto('/parks/');
  await expect(page.locator(`li[data-park="${PARK_WITH_DAY}"] .park-crowd`)).toHaveText(crowdText(crowd));
  // EPCOT has no day recorded here: no level, said so (or not asked before its opening).
  await expect(page.locator('li[data-park="epcot"] .park-crowd')).toHaveText(
    /^(Crowd: not enough history yet today|Crowd level once it opens)$/,
  );
});

test('a failed crowd level costs that part only: hours and skill stay', async ({ page }) => {
  await page.route('**/api/wait-times/history?**', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto('/parks/');
  const day = page.locator(`li[data-park="${PARK_WITH_DAY}"]`);
  await expect(day.locator('.park-crowd')).toHaveText('Crowd level unavailable right now');
  await expect(day.locator('.park-hours')).toHaveText(/ now · today /);
  await expect(day.locator('.park-skill')).toHaveText(/^Forecasts, last 28 days: /);
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the scorecard and the parks index are axe-clean and fit in the ${colorScheme} theme (screenshots attached)`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(90_000); // two axe runs and two full-page screenshots on a shared 2-core machine
      await page.emulateMedia({ colorScheme });
      await openPark(page, PARK_WITH_DAY);
      await expect(accuracy(page).locator('.skill-line')).toHaveText(LINE);
      expect(await axeViolations(page)).toEqual([]);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      const path = testInfo.outputPath(`accuracy-phone-${colorScheme}.png`);
      await accuracy(page).screenshot({ path });
      await testInfo.attach(`accuracy-phone-${colorScheme}`, { path, contentType: 'image/png' });

      await page.goto('/parks/');
      await expect(page.locator(`li[data-park="${PARK_WITH_DAY}"] .park-skill`)).not.toBeEmpty();
      await expect(page.locator('li[data-park="epcot"] .park-hours')).not.toBeEmpty();
      await expect(page.locator(`li[data-park="${PARK_WITH_DAY}"] .park-crowd`)).not.toBeEmpty();
      expect(await axeViolations(page)).toEqual([]);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await picture(page, testInfo, `parks-index-phone-${colorScheme}`);
    });
  }
});
