import { expect, type Page, test } from '@playwright/test';
import type { WaitHistory } from '../../src/wait-times/day/history-schemas.ts';
import type { ParkHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { axeViolations } from '../support/axe.ts';

/**
 * The park's hours on a park page: one line above the table ("Open 9:00–21:00 · closes in 1 h 20
 * min"), on the park's clock, and the credit "Park hours: ThemeParks.wiki" beside the queue-times
 * one. EPCOT's hours come from the harness's fake ThemeParks.wiki (SYNTHETIC 09:00–21:00, New
 * York); the page's clock is set around them to show each state.
 */

const PARK = 'epcot';
const ZONE = 'America/New_York';
const MINUTE = 60_000;

const widget = (page: Page) => page.locator('park-waits');
/** The line as shown, and the sentence read out instead of it. */
const shown = (page: Page) => widget(page).locator('[part="hours"] > [aria-hidden="true"]');
const spoken = (page: Page) => widget(page).locator('[part="hours"] > .vh');
const credit = (page: Page) => widget(page).getByRole('link', { name: 'ThemeParks.wiki' });

/** The park's hours as the API gives them today. */
async function hoursOf(page: Page): Promise<ParkHours> {
  const response = await page.request.get(`/api/wait-times/history?park=${PARK}`);
  expect(response.status()).toBe(200);
  const { hours } = (await response.json()) as WaitHistory;
  if (!hours) throw new Error('the harness serves EPCOT’s hours');
  return hours;
}

/** A time as the page writes it here (en-GB: 24-hour, no leading zero), on the park's clock. */
const clock = (at: number) =>
  new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit', timeZone: ZONE }).format(at);

/** Opens the park page with the page's clock fixed at `at`. */
async function openAt(page: Page, at: number): Promise<void> {
  await page.clock.setFixedTime(at);
  await page.goto(`/parks/${PARK}/`);
  await expect(widget(page)).toHaveAttribute('state', 'ready');
}

test.describe('a reader on the park’s clock', () => {
  test.use({ locale: 'en-GB', timezoneId: ZONE });

  test('before opening the page says when the park opens, credited beside the wait times', async ({ page }) => {
    const { opensAt } = await hoursOf(page);
    await openAt(page, opensAt - 90 * MINUTE);
    await expect(shown(page)).toHaveText(`Opens at ${clock(opensAt)}`);
    await expect(spoken(page)).toHaveText(`Opens at ${clock(opensAt)}.`);
    await expect(credit(page)).toHaveAttribute('href', 'https://themeparks.wiki/');
    await expect(widget(page).locator('[part="hours-attribution"]')).toHaveText('Park hours: ThemeParks.wiki');
    await expect(widget(page).getByRole('link', { name: 'Powered by Queue-Times.com' })).toBeVisible();
    // The page's own footer credits both, too.
    await expect(page.locator('body > footer')).toContainText('Park hours: ThemeParks.wiki');
    await expect(page.locator('body > footer').getByRole('link', { name: 'ThemeParks.wiki' })).toHaveAttribute(
      'href',
      'https://themeparks.wiki/',
    );
  });

  test('while open it gives the hours and the time left, and counts down as the clock runs', async ({ page }) => {
    const { opensAt, closesAt } = await hoursOf(page);
    const range = `${clock(opensAt)}–${clock(closesAt)}`;
    await page.clock.install({ time: closesAt - 80 * MINUTE });
    await page.goto(`/parks/${PARK}/`);
    await expect(widget(page)).toHaveAttribute('state', 'ready');
    await expect(shown(page)).toHaveText(`Open ${range} · closes in 1 h 20 min`);
    await expect(spoken(page)).toHaveText(
      `Open from ${clock(opensAt)} to ${clock(closesAt)}, closes in 1 hour 20 minutes.`,
    );
    await page.clock.fastForward('45:00');
    await expect(shown(page)).toHaveText(`Open ${range} · closes in 35 min`);
    await page.clock.fastForward('40:00');
    await expect(shown(page)).toHaveText(`Closed for today · was open ${range}`);
  });

  test('after closing it says the park is closed for today, and when it was open (screenshot attached)', async ({
    page,
  }, testInfo) => {
    const { opensAt, closesAt } = await hoursOf(page);
    await openAt(page, closesAt + 30 * MINUTE);
    await expect(shown(page)).toHaveText(`Closed for today · was open ${clock(opensAt)}–${clock(closesAt)}`);
    await expect(spoken(page)).toHaveText(
      `Closed for today; it was open from ${clock(opensAt)} to ${clock(closesAt)}.`,
    );
    await expect(credit(page)).toBeVisible();
    const path = testInfo.outputPath('hours-closed-desktop-light.png');
    await widget(page).screenshot({ path });
    await testInfo.attach('hours-closed-desktop-light', { path, contentType: 'image/png' });
  });

  test('with only yesterday’s hours (today’s not asked for yet) it says nothing and credits no one for hours', async ({
    page,
  }) => {
    const { closesAt } = await hoursOf(page);
    // The next morning, the hours are yesterday's until the page asks again: today's are not known.
    await openAt(page, closesAt + 12 * 60 * MINUTE);
    await expect(widget(page).locator('[part="hours"]')).toBeHidden();
    await expect(widget(page).locator('[part="hours-attribution"]')).toBeHidden();
    await expect(widget(page).getByRole('link', { name: 'Powered by Queue-Times.com' })).toBeVisible();
  });
});

test.describe('a reader in Paris, six hours ahead of the park', () => {
  test.use({ locale: 'en-GB', timezoneId: 'Europe/Paris', colorScheme: 'dark', viewport: { width: 390, height: 844 } });

  test('sees the park’s own times marked “park time”, axe-clean in the dark theme on a 390 px phone, credits in the Tab order (screenshot attached)', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000); // an axe run and a full-page screenshot on a shared 2-core machine
    const { opensAt, closesAt } = await hoursOf(page);
    await openAt(page, closesAt - 80 * MINUTE);
    const text = `Open ${clock(opensAt)}–${clock(closesAt)} park time · closes in 1 h 20 min`;
    await expect(shown(page)).toHaveText(text);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The two credits follow each other from the keyboard.
    await widget(page).getByRole('link', { name: 'Powered by Queue-Times.com' }).focus();
    await page.keyboard.press('Tab');
    await expect(credit(page)).toBeFocused();
    const path = testInfo.outputPath('hours-phone-dark.png');
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach('hours-phone-dark', { path, contentType: 'image/png' });
  });
});
