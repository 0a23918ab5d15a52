import { expect, test } from '@playwright/test';

test('the home page lists every park and credits the wait-time provider, without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('site-api');
  await expect(page.locator('a[href^="/api/wait-times?park="]')).toHaveCount(17);
  await expect(page.getByRole('link', { name: 'Powered by Queue-Times.com' })).toHaveAttribute(
    'href',
    'https://queue-times.com/',
  );
  expect(errors).toEqual([]);
});
