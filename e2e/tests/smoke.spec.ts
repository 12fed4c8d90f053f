import { expect, test } from '@playwright/test';

const HERO = 'Music version control with zero data harvesting';

test('the landing page renders its hero heading', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: HERO })).toBeVisible();
  await expect(page.getByText('No track currently playing')).toBeVisible();
});

test('an unknown path lands on /404 and "Go to home" leads back to /', async ({ page }) => {
  await page.goto('/definitely/not/here');

  await expect(page).toHaveURL('/404');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Takes');
  // A fresh tab has no in-app history to go back to.
  await expect(page.getByRole('button', { name: 'Go back' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Go to home' }).click();

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: HERO })).toBeVisible();
});

test('the theme toggle switches to dark and remembers it across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const root = page.locator('html');
  await expect(root).not.toHaveClass(/\bdark\b/);

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(root).toHaveClass(/\bdark\b/);

  await page.reload();
  await expect(root).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
});
