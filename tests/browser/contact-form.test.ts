import { expect, test } from '@playwright/test';

// A plain HTML form on a page of the site, in a browser with JavaScript off: what a visitor
// without script sees. The browser-test site has no SMTP configured, so a valid message meets the
// 503 page; an invalid one meets the 400 page. The form page itself is served by the test.

const FORM_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Contact</title></head>
<body>
<form method="post" action="/api/contact" novalidate>
  <label>Name <input name="name"></label>
  <label>E-mail <input name="email" type="email"></label>
  <label>Message <textarea name="message"></textarea></label>
  <div style="position:absolute;left:-10000px" aria-hidden="true">
    <label>Leave this empty <input name="website" tabindex="-1" autocomplete="off"></label>
  </div>
  <button>Send</button>
</form>
</body>
</html>`;

test.use({ javaScriptEnabled: false });

test.beforeEach(async ({ page }) => {
  await page.route('**/contact-form-test/', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: FORM_PAGE }),
  );
});

test('a form without JavaScript shows what to fix on a page of its own, and leads back to the form', async ({
  page,
}) => {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto('/contact-form-test/');
  await page.getByLabel('E-mail').fill('not an address');
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page).toHaveURL(/\/api\/contact$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check the form');
  await expect(page.getByRole('listitem')).toHaveText([
    'Name: must be 1 to 100 characters',
    'E-mail: must be a valid e-mail address',
  ]);
  // The page's own style sheet is applied: its Content-Security-Policy hash is right.
  await expect(page.locator('main')).toHaveCSS('max-width', '576px');
  expect(cspViolations).toEqual([]);

  await page.getByRole('link', { name: 'Back to the form' }).click();
  await expect(page).toHaveURL(/\/contact-form-test\/$/);
});

test('a valid form where mail is not configured gets the 503 page', async ({ page }) => {
  await page.goto('/contact-form-test/');
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Message').fill('Hello');
  const [response] = await Promise.all([
    page.waitForResponse('**/api/contact'),
    page.getByRole('button', { name: 'Send' }).click(),
  ]);
  expect(response.status()).toBe(503);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The contact form is not available');
  await expect(page.getByText('Please try again later.')).toBeVisible();
});
