import { expect, type Locator, type Page, test } from '@playwright/test';
import type { WaitHistory } from '../../src/wait-times/day/history-schemas.ts';
import type { Ride, WaitTimes } from '../../src/wait-times/wait-times-schemas.ts';
import { axeViolations } from '../support/axe.ts';
import { EMBEDDER_PORT, PARK_WITH_DAY } from '../support/browser-harness.ts';

/**
 * The day charts of <park-waits> on a park page whose usual day and day so far the harness seeded
 * (a quarter busier than usual): the crowd level in words, a chart per ride with its sentence, the
 * outlook to the end of the park's day with each ride's best time still ahead.
 */

const HALF_HOUR = 30 * 60_000;
const widget = (page: Page) => page.locator('park-waits');

/** Text as read, with the no-break spaces the widget puts inside times ("5:30 PM") as plain spaces. */
const plain = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** The time as the widget writes it: the page's locale, the park's time zone. */
const clock = (page: Page, at: number, timeZone: string) =>
  page.evaluate(
    ([at, timeZone]) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone }).format(at),
    [at, timeZone] as const,
  );

/** The park's closing (the harness seeds one before midnight), or Infinity when its hours are unknown. */
const closingOf = (day: WaitHistory) => day.hours?.closesAt ?? Number.POSITIVE_INFINITY;

/** A ride's best time still ahead of the live data and before closing (the widget's rule), or null. */
function bestOf(day: WaitHistory, live: WaitTimes, ride: Ride) {
  const best = day.rides.find((entry) => entry.name === ride.name)?.bestTime ?? null;
  return ride.open && best && best.at > live.updatedAt && best.at < closingOf(day) ? best : null;
}

/** The seeded park has no outlook in the last half hour before closing: nothing to check then. */
const hasOutlook = (day: WaitHistory) =>
  day.rides.some((ride) => ride.bestTime !== null && ride.bestTime.at < closingOf(day));

/**
 * Checks every open ride's chart and words about its best time; returns how many rides had one.
 * `cells` are the rides' "Today" cells in name order.
 */
async function expectBestTimes(page: Page, cells: Locator, day: WaitHistory, live: WaitTimes): Promise<number> {
  let checked = 0;
  for (const [index, ride] of [...live.rides].sort((a, b) => a.name.localeCompare(b.name)).entries()) {
    const cell = cells.nth(index);
    const best = bestOf(day, live, ride);
    if (!best) {
      await expect(cell.locator('path.ring')).toHaveCount(0);
      await expect(cell.locator('.best')).toHaveCount(0);
      continue;
    }
    const time = await clock(page, best.at, day.timeZone);
    const now = ride.wait <= best.wait;
    expect(await plain(cell.locator('.best'))).toBe(
      now ? 'best now' : `best ${time}, ~${best.wait} min`.replace(/\s+/g, ' '),
    );
    expect(await plain(cell.locator('.vh'))).toMatch(
      now
        ? / Now is as good as it gets today: no shorter wait expected later\.$/
        : new RegExp(` Best time still ahead: about ${time.replace(/\s+/g, ' ')}, around ${best.wait} min\\.$`),
    );
    // The dashed line runs from now to the end of the outlook; the ring marks the best time (or now).
    const d = (await cell.locator('path.forecast').getAttribute('d')) ?? '';
    expect(d.match(/[LM]/g)?.length ?? 0).toBeGreaterThan(2);
    await expect(cell.locator('path.ring')).toHaveCount(1);
    await expect(cell.locator('path.soon')).toHaveCount(0);
    checked += 1;
  }
  return checked;
}

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
    await expect(cell.locator('.usually')).toHaveText(`usually ${usual}`);
    expect(await plain(cell.locator('.vh'))).toMatch(
      new RegExp(`^${ride.wait} min now, usually ${usual} at this hour${soon}\\.( |$)`),
    );
    await expect(cell.locator('svg.chart path.today')).toHaveCount(1);
    await expect(cell.locator('svg.chart path.now')).toHaveCount(1);
    checked += 1;
  }
  expect(checked).toBeGreaterThan(3);
});

test('draws each ride’s outlook as a dashed line to the end of the day, rings its best time and says it in words', async ({
  page,
}) => {
  const { live, day } = await open(page);
  expect(hasOutlook(day)).toBe(true);
  const cells = widget(page).locator('tbody tr').locator('td.day');
  expect(await expectBestTimes(page, cells, day, live)).toBeGreaterThan(3);
  // Saying "best 17:30" and "now is as good as it gets" are both possible; at least one ride says one.
  await expect(widget(page).locator('.best').first()).toBeVisible();
});

test('continues the park’s average as a dashed line and names its shortest wait still ahead', async ({ page }) => {
  const { day } = await open(page);
  expect(hasOutlook(day)).toBe(true);
  const chart = widget(page).locator('svg.park-chart');
  await expect(chart).toHaveAccessibleName(
    /: \d+ min now(, usually \d+ at this hour)?; shortest expected later today: about \d+ min at .+\.$/,
  );
  const now = Number((await chart.locator('path.now').getAttribute('d'))?.match(/^M([\d.]+)/)?.[1]);
  const outlook = (await chart.locator('path.forecast').getAttribute('d')) ?? '';
  const xs = [...outlook.matchAll(/[LM]([\d.]+) /g)].map((match) => Number(match[1]));
  expect(xs[0]).toBe(now);
  expect(Math.max(...xs)).toBeGreaterThan(now);
  await expect(chart.locator('path.ring')).toHaveCount(1);
  await expect(widget(page).locator('.axis')).toContainText('dashes: outlook · ring: best time');
});

test('stops every dashed outlook at the park’s closing, marked on the park chart, as the API’s outlook does', async ({
  page,
}) => {
  const { live, day } = await open(page);
  const closesAt = closingOf(day);
  // The harness seeds hours closing at 23:00; the API's outlook ends at the last half hour before it.
  expect(closesAt).toBeLessThan(day.dayEndsAt);
  expect(day.outlookTimes.at(-1)).toBeLessThan(closesAt);
  expect(live.updatedAt).toBeLessThan(closesAt);
  // Where closing falls, as a share of the width: the park chart marks it; every chart shares the time axis.
  const parkChart = widget(page).locator('svg.park-chart');
  const closing = (await parkChart.locator('path.closing').getAttribute('d')) ?? '';
  const closingShare = Number(/^M([\d.]+) 0V[\d.]+$/.exec(closing)?.[1]) / 300;
  expect(closingShare).toBeGreaterThan(0);
  const charts = widget(page).locator('svg.park-chart, td.day svg.chart');
  let drawn = 0;
  for (const chart of await charts.all()) {
    const [box = '', outlook = ''] = await chart.evaluate((svg) => [
      svg.getAttribute('viewBox') ?? '',
      svg.querySelector('path.forecast')?.getAttribute('d') ?? '',
    ]);
    const width = Number(box.split(' ')[2]);
    const xs = [...outlook.matchAll(/[LM]([\d.]+) /g)].map((match) => Number(match[1]) / width);
    if (xs.length > 1) drawn += 1;
    for (const share of xs) expect(share).toBeLessThanOrEqual(closingShare + 0.001);
  }
  // Ride charts leave the marker out (clutter at their size).
  await expect(widget(page).locator('td.day path.closing')).toHaveCount(0);
  expect(drawn).toBeGreaterThan(3);
  await expect(widget(page).locator('.axis .legend')).toContainText('upright line: closing');
});

/**
 * Axe checks each theme once, at one of the two layouts, so both themes and both layouts are
 * checked: the colours are the theme's, and each layout is checked for overflow and the keyboard.
 */
const AXE_LAYOUT = { light: 'desktop', dark: 'phone' } as const;

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the charts pass an axe check (on the ${AXE_LAYOUT[colorScheme]}) and keep the keyboard path in the ${colorScheme} theme (screenshots attached)`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000); // two layouts and an axe run on a shared 2-core machine
    await page.emulateMedia({ colorScheme });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      const { day } = await open(page);
      if (AXE_LAYOUT[colorScheme] === name) expect(await axeViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (hasOutlook(day)) {
        // A dot is a round cap on a path of length 0, which has no box to be "visible": its pen is checked.
        await expect(widget(page).locator('td.day path.ring').first()).toHaveCSS('stroke-width', '9px');
        await expect(widget(page).locator('td.day .best').first()).toBeVisible();
      }
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

test('embedded on another site in its dark theme, the widget draws the outlook and says the best times; axe-clean at 390 px', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000); // an axe run and a tall screenshot on a shared 2-core machine
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`http://127.0.0.1:${EMBEDDER_PORT}/`);
  const embedded = page.locator(`park-waits[park="${PARK_WITH_DAY}"]`);
  await expect(embedded).toHaveAttribute('state', 'ready');
  await expect(embedded.locator('svg.park-chart')).toBeVisible();
  const live = await api<WaitTimes>(page, `/api/wait-times?park=${PARK_WITH_DAY}`);
  const day = await api<WaitHistory>(page, `/api/wait-times/history?park=${PARK_WITH_DAY}`);
  expect(hasOutlook(day)).toBe(true);
  expect(await expectBestTimes(page, embedded.locator('tbody tr td.day'), day, live)).toBeGreaterThan(3);
  // The page's choice wins over the reader's preference (light here).
  await expect(embedded).toHaveCSS('color-scheme', 'dark');
  expect(await axeViolations(page, { include: `park-waits[park="${PARK_WITH_DAY}"]` })).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const path = testInfo.outputPath('embedded-outlook-phone-dark.png');
  await embedded.screenshot({ path });
  await testInfo.attach('embedded-outlook-phone-dark', { path, contentType: 'image/png' });
});
