import { expect, test } from './support/test';
import { seedUser, signInWithPassword } from './support/accounts';

test("/desktop-return without a code says 'Missing code parameter.'", async ({ page }) => {
  await page.goto('/desktop-return');
  await expect(page.getByText('Missing code parameter.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open Takes Desktop' })).toHaveCount(0);
});

test('/desktop-return offers the deep link with the code', async ({ page }) => {
  await page.goto('/desktop-return?code=abc%20123');
  await expect(page.getByRole('link', { name: 'Open Takes Desktop' })).toHaveAttribute(
    'href',
    'takes://auth-callback?code=abc%20123',
  );
});

test('approving a desktop sign-in hands a one-time code to /desktop-return', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'desktop-approve');
  await page.goto('/desktop-auth');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/desktop-auth');
  await expect(page.getByRole('heading', { name: 'Sign in to Takes Desktop' })).toBeVisible();

  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(/\/desktop-return\?code=.+/);
  await expect(page.getByRole('link', { name: 'Open Takes Desktop' })).toHaveAttribute(
    'href',
    /^takes:\/\/auth-callback\?code=.+/,
  );
});
