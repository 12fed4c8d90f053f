import { expect, test } from './support/test';
import { localPart, seedUser, signInWithPassword } from './support/accounts';

// A 1×1 transparent PNG.
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test('the profile page saves a display name, which the dashboard then greets', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'profile-name');
  await page.goto('/profile');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/profile');

  await expect(page.getByText(credentials.email)).toBeVisible();
  await page.getByRole('textbox', { name: 'Display name' }).fill('Mara Lindqvist');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page.getByRole('heading', { name: 'Welcome back, Mara Lindqvist' })).toBeVisible();
});

test('the profile page uploads an avatar and refuses a non-image', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'profile-avatar');
  await page.goto('/profile');
  await signInWithPassword(page, credentials);
  const picker = page.getByLabel('Avatar image');

  await picker.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hi'),
  });
  await expect(page.getByRole('alert')).toHaveText('Please choose a PNG, JPEG or WebP image.');
  await expect(page.getByRole('button', { name: 'Upload avatar' })).toBeDisabled();

  await picker.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
  await page.getByRole('button', { name: 'Upload avatar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Avatar updated.' })).toBeVisible();
  // The navbar's account button now shows the picture instead of initials.
  await expect(page.getByRole('button', { name: 'Account menu' }).locator('img')).toHaveAttribute(
    'src',
    /.+/,
  );
});

test('settings: change the password, then sign in with the new one', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'change-password');
  const newPassword = `${credentials.password}-new`;
  await page.goto('/settings');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/settings');

  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password', { exact: true }).fill('other');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await page.getByLabel('Current password', { exact: true }).fill(credentials.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your password has been changed.' }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/login');
  await signInWithPassword(page, { email: credentials.email, password: newPassword });
  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(credentials.email)}` }),
  ).toBeVisible();
});

test('settings: signing out of other sessions ends them and keeps this one', async ({
  page,
  browser,
  request,
  baseURL,
  extraHTTPHeaders,
}) => {
  const credentials = await seedUser(request, baseURL, 'other-sessions');
  const otherContext = await browser.newContext({ baseURL, extraHTTPHeaders });
  const otherPage = await otherContext.newPage();
  await otherPage.goto('/login');
  await signInWithPassword(otherPage, credentials);
  await expect(otherPage).toHaveURL('/dashboard');

  await page.goto('/settings');
  await signInWithPassword(page, credentials);
  await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Signed out of \d+ other sessions?\.$/ }),
  ).toBeVisible();

  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL('/login');
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/dashboard');
  await otherContext.close();
});

test('the navbar avatar menu opens the profile and settings pages', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'menu-links');
  await page.goto('/login');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/dashboard');

  const accountMenu = page.getByRole('button', { name: 'Account menu' });
  await accountMenu.click();
  await page.getByRole('menuitem', { name: 'Your Profile' }).click();
  await expect(page).toHaveURL('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeVisible();

  // Keyboard: ArrowDown opens the menu on its first item, Escape closes it.
  await accountMenu.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Your Profile' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});
