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

test('an approved CLI shows under Devices on /settings; revoking it ends its refresh', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'devices');
  await page.goto('/settings');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/settings');
  await expect(page.getByText('No desktop app or CLI is signed in to your account.')).toBeVisible();

  // The CLI's way in: approve in the browser, then trade the code with the CLI's name.
  await page.goto('/desktop-auth');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/desktop-return\?code=.+/);
  const code = new URL(page.url()).searchParams.get('code');
  const tokens = await request.post('/api/desktop/token', {
    data: { code, name: 'takes CLI on e2e-box' },
  });
  expect(tokens.status(), await tokens.text()).toBe(200);
  const { access_token, refresh_token } = (await tokens.json()) as {
    access_token: string;
    refresh_token: string;
  };

  await page.goto('/settings');
  const device = page
    .getByRole('list', { name: 'Signed-in devices' })
    .getByRole('listitem', { name: 'takes CLI on e2e-box' });
  await expect(device).toBeVisible();
  await expect(device).toContainText('Last used just now');
  await device.getByRole('button', { name: 'Revoke takes CLI on e2e-box' }).click();

  await expect(page.getByText('takes CLI on e2e-box was signed out.')).toBeVisible();
  await expect(page.getByText('No desktop app or CLI is signed in to your account.')).toBeVisible();
  const refreshed = await request.post('/api/desktop/refresh', { data: { refresh_token } });
  expect(refreshed.status()).toBe(401);
  const bearer = await request.get('/api/auth/session', {
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(bearer.status()).toBe(401);
});
