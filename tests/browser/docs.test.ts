import { expect, type Page, type Response, test } from '@playwright/test';
import { axeViolations } from '../support/axe.ts';

/**
 * /docs/api/ in Chromium: every operation of /docs/openapi.json is there with a working curl
 * example, every link leads somewhere, the provider is credited, it passes axe, it reads the same
 * without JavaScript and it stays small.
 */
type OpenApi = {
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; summary: string }>>;
};

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

async function openapiOf(page: Page): Promise<OpenApi> {
  const response = await page.request.get('/docs/openapi.json');
  expect(response.ok()).toBe(true);
  return (await response.json()) as OpenApi;
}

function operationsOf(document: OpenApi) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), ...operation })),
  );
}

test('lists every operation of the OpenAPI document with a curl example, without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/docs/api/');
  const document = await openapiOf(page);
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(0);
  for (const op of operations) {
    const heading = page.locator(`h3[id="${op.operationId}"]`);
    await expect(heading).toHaveText(`${op.method} ${op.path}`);
    await expect(page.locator(`nav a[href="#${op.operationId}"]`)).toHaveCount(1);
    const article = page.locator('article', { has: heading });
    await expect(article.getByText(op.summary, { exact: true })).toBeVisible();
    await expect(article.locator('[data-copy-source]')).toHaveText(
      new RegExp(`^curl -s .*'${document.servers[0]?.url}`),
    );
  }
  await expect(page.locator('h3[id] + .summary')).toHaveCount(operations.length);
  await expect(page.locator('[data-copy-source]').first()).toHaveText(
    `curl -s '${document.servers[0]?.url}/api/wait-times?park=epcot'`,
  );
  expect(errors).toEqual([]);
});

test('credits the wait-time provider and lists the 17 parks', async ({ page }) => {
  await page.goto('/docs/api/');
  const credit = page.getByRole('link', { name: 'Powered by Queue-Times.com' });
  await expect(credit).toHaveCount(1);
  await expect(credit).toHaveAttribute('href', 'https://queue-times.com/');
  await expect(credit).toBeVisible();
  await expect(page.locator('section:has(> #parks) tbody tr')).toHaveCount(17);
  await expect(page.locator('section:has(> #parks) tbody tr').first()).toContainText('magic-kingdom');
});

test('has only links that work: pages answer 200, fragments name an element, the rest go to the provider', async ({
  page,
}) => {
  await page.goto('/docs/api/');
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThan(20);
  for (const href of new Set(hrefs)) {
    if (href.startsWith('#')) {
      await expect(page.locator(`[id="${href.slice(1)}"]`), href).toHaveCount(1);
    } else if (href.startsWith('/')) {
      const response = await page.request.get(href);
      expect(response.status(), href).toBe(200);
    } else {
      // Outside links cannot be fetched offline; the only one is the provider's site.
      expect(new URL(href).origin, href).toBe('https://queue-times.com');
    }
  }
});

test('passes an axe accessibility check (WCAG 2.1 A and AA, best practices)', async ({ page }) => {
  // Axe walks every element of the whole reference (about 90 KB, every example open): over 30 s
  // when the shared 2-core machine is busy.
  test.setTimeout(90_000);
  await page.goto('/docs/api/');
  await page.locator('details').evaluateAll((all) => {
    for (const details of all) (details as HTMLDetailsElement).open = true;
  });
  const violations = await axeViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});

test('copies a curl command with its Copy button', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/api/');
  const example = page.locator('.example').first();
  // By class: its accessible name changes to "Copied" for a moment.
  const button = example.locator('button.copy');
  await expect(button).toHaveAccessibleName('Copy');
  await expect(button).toBeVisible();
  await button.click();
  await expect(button).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await example.locator('[data-copy-source]').textContent());
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('reads the same: headings, examples and tables are there, and no dead Copy button shows', async ({ page }) => {
    await page.goto('/docs/api/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('site-api API reference');
    await expect(page.locator('[data-copy-source]').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy' })).toHaveCount(0);
    await page.getByText('Example 200 response').first().click();
    await expect(page.locator('details pre').first()).toBeVisible();
    await expect(page.locator('details pre').first()).toContainText('"source": "queue-times.com"');
  });
});

// The whole reference for every endpoint, examples included, is one HTML file (143 KB, 25 KB
// gzipped, for eleven operations, 2026-11-28); the budget leaves room to grow and still rules out
// a bundle.
test('is small: the page and everything it loads stay under 224 KB', async ({ page }) => {
  // Every body is awaited before counting: adding them up inside the event handler raced the end
  // of the test ("response.body: Test ended").
  // The listener goes before the count, so that a late response's body is never left unread.
  const bodies: Promise<Buffer>[] = [];
  const collect = (response: Response) => void bodies.push(response.body());
  page.on('response', collect);
  await page.goto('/docs/api/', { waitUntil: 'networkidle' });
  page.off('response', collect);
  const bytes = (await Promise.all(bodies)).reduce((sum, body) => sum + body.byteLength, 0);
  expect(bodies.length).toBeGreaterThan(0);
  expect(bytes).toBeGreaterThan(0);
  expect(bytes).toBeLessThan(224 * 1024);
});
