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

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("signed in, the row holds the workspace links and 'More' opens the site's pages", async ({
    page,
    request,
    baseURL,
  }) => {
    const credentials = await seedUser(request, baseURL, 'more-menu');
    await page.goto('/login');
    await signInWithPassword(page, credentials);
    await expect(page).toHaveURL('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Dashboard', 'Upload', 'Repositories', 'Bounces', 'Collections'])
      await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await expect(nav.getByRole('link', { name: 'About Us' })).toHaveCount(0);

    // By keyboard: ArrowDown opens it on its first item, Escape closes it back on the button.
    const more = nav.getByRole('button', { name: 'More' });
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: 'More' });
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Home',
      'About Us',
      'Roadmap',
      'Blog',
      'Download',
    ]);
    await expect(menu.getByRole('menuitem', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(menu.getByRole('menuitem', { name: 'Download' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(more).toBeFocused();

    await more.click();
    await menu.getByRole('menuitem', { name: 'Roadmap' }).click();
    await expect(page).toHaveURL('/roadmap');
    await expect(menu).toHaveCount(0);
    // The account menu is in the window, with its way to Settings.
    await nav.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL('/settings');

    // The row is used down to 1024 px; below, the compact menu, with the workspace links first.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(more).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await page.setViewportSize({ width: 1023, height: 800 });
    await expect(more).toBeHidden();
    await nav.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu').getByRole('link')).toHaveText([
      'Dashboard',
      'Upload',
      'Repositories',
      'Bounces',
      'Collections',
      'Home',
      'About Us',
      'Roadmap',
      'Blog',
      'Download',
    ]);
  });
});
