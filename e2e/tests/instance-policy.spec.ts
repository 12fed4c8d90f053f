import { SIGNUP_MESSAGES } from '@takes/contract';
import { newCredentials } from './support/accounts';
import { ADMINS, signInByCode } from './support/admin';
import { expect, test } from './support/test';

// Closing sign-ups changes the whole instance: this spec runs in its own Playwright project, after
// every other spec has finished (playwright.config.ts), so no other test's sign-up meets it.
test('an admin closes sign-ups on /admin and a newcomer is refused with the message', async ({
  browser,
  page,
  baseURL,
}) => {
  await signInByCode(page, baseURL, ADMINS.policy);
  await page.goto('/admin');
  const signups = page.getByRole('region', { name: 'Sign-ups' });
  try {
    await signups.getByRole('combobox', { name: 'Who may sign up' }).selectOption('closed');
    await signups.getByRole('button', { name: 'Save sign-up policy' }).click();
    await expect(signups.getByText('Sign-up policy saved.')).toBeVisible();

    const newcomer = await browser.newContext({ baseURL });
    const newcomerPage = await newcomer.newPage();
    await newcomerPage.goto('/login');
    await newcomerPage.getByRole('tab', { name: 'Email' }).click();
    await expect(newcomerPage.getByText(SIGNUP_MESSAGES.closed)).toBeVisible();
    const refused = await newcomer.request.post('/api/auth/sign-up/email', {
      data: newCredentials('newcomer'),
      headers: { origin: new URL(baseURL ?? '').origin },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(SIGNUP_MESSAGES.closed);
    await newcomer.close();
  } finally {
    await signups.getByRole('button', { name: 'Use SIGNUPS again' }).click();
    await expect(signups.getByText('From SIGNUPS in the server’s environment.')).toBeVisible();
  }
});
