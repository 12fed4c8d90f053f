import { seedUser, signInWithPassword } from './support/accounts';
import { expect, test } from './support/test';

test.use({ viewport: { width: 390, height: 844 } });

test('the mobile menu lists the signed-out links and the Sign in button', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Sign in' })).toBeVisible();

  await nav.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'About Us' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
});

test('the mobile menu adds the signed-in links and closes on navigation', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'mobile-menu');
  await page.goto('/login');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('button', { name: 'Account menu' })).toBeVisible();

  await nav.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  for (const link of ['Dashboard', 'Upload', 'Repositories', 'Bounces']) {
    await expect(menu.getByRole('link', { name: link })).toBeVisible();
  }
  await menu.getByRole('link', { name: 'Bounces' }).click();

  await expect(page).toHaveURL('/bounces');
  await expect(menu).toHaveCount(0);
});
