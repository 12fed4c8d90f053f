import { expect, test } from './support/test';
import { localPart, newCredentials, seedUser, signInWithPassword } from './support/accounts';

test('signing up with email and password lands on the dashboard; signing out returns to a signed-out navbar', async ({
  page,
}) => {
  const { email, password } = newCredentials('sign-up');
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to your account' }),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('button', { name: 'Need an account? Sign Up' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { level: 1, name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const link of ['Dashboard', 'Upload', 'Repositories', 'Bounces']) {
    await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Sign in' })).toHaveCount(0);

  await nav.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Your Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();

  await expect(page).toHaveURL('/');
  await expect(nav.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'Account menu' })).toHaveCount(0);

  // The session really ended on the server: the dashboard's guard sends us to sign in.
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/login');
});

test('signing in with email and password lands on the dashboard', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'password-sign-in');
  await page.goto('/login');
  await signInWithPassword(page, credentials);

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(credentials.email)}` }),
  ).toBeVisible();
});

test('a wrong password shows the server message and stays on /login', async ({
  page,
  request,
  baseURL,
}) => {
  const { email } = await seedUser(request, baseURL, 'wrong-password');
  await page.goto('/login');
  await signInWithPassword(page, { email, password: 'not-the-password' });

  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page).toHaveURL('/login');
});

test('the show/hide toggle reveals the password', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Email' }).click();
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('secret-words');
  await expect(password).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
});
