import { OAUTH_ERROR_MESSAGES } from '@takes/contract';
import type { Page } from '@playwright/test';
import { localPart, seedUser, uniqueEmail } from './support/accounts';
import { E2E_OIDC } from './support/oidc';
import { expect, test } from './support/test';

/** On the test OpenID provider's own sign-in form (a real oidc-provider process). */
async function signInAtProvider(page: Page, login: string) {
  await expect(page.getByRole('heading', { name: 'Sign-in' })).toBeVisible();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test(`'Sign in with ${E2E_OIDC.name}' goes through the studio's provider and lands signed in`, async ({
  page,
}) => {
  const email = uniqueEmail('sso');
  await page.goto('/login');
  await page.getByRole('button', { name: `Sign in with ${E2E_OIDC.name}` }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
  await signInAtProvider(page, email);

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { level: 1, name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
});

test('an unverified email from the provider does not sign into the account with that email', async ({
  page,
  request,
  baseURL,
}) => {
  const { email } = await seedUser(request, baseURL, 'sso-taken');
  await page.goto('/login');
  await page.getByRole('button', { name: `Sign in with ${E2E_OIDC.name}` }).click();
  await signInAtProvider(page, `unverified:${email}`);

  await expect(page).toHaveURL(/\/login\?error=account_not_linked/);
  await expect(page.getByText(OAUTH_ERROR_MESSAGES.account_not_linked)).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Sign in to your account' }),
  ).toBeVisible();
});

test('a return from the provider with a wrong state ends on the sign-in page with the reason', async ({
  page,
}) => {
  await page.goto('/api/auth/callback/oidc?code=stolen-code&state=forged-state');
  await expect(page).toHaveURL(/\/login\?error=state_mismatch/);
  await expect(page.getByText(OAUTH_ERROR_MESSAGES.state_mismatch)).toBeVisible();
});
