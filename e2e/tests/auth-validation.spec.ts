import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { uniqueEmail } from './support/accounts';

async function openEmailTab(page: Page) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Email' }).click();
}

test('the email form shows the required-field messages and sends nothing', async ({ page }) => {
  await openEmailTab(page);
  const signInCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/sign-')) signInCalls.push(request.url());
  });

  await page.getByRole('button', { name: 'Sign In', exact: true }).click();

  const email = page.getByRole('textbox', { name: 'Email' });
  const password = page.getByLabel('Password', { exact: true });
  await expect(email).toHaveAccessibleDescription('Email is required');
  await expect(password).toHaveAccessibleDescription('Password is required');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toBeFocused();
  expect(signInCalls).toEqual([]);
});

test('the email form rejects a bad address and a short password', async ({ page }) => {
  await openEmailTab(page);
  await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('12345');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();

  await expect(page.getByText('Invalid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

  // Typing into a field clears its message.
  await page.getByRole('textbox', { name: 'Email' }).fill('someone@example.com');
  await expect(page.getByText('Invalid email address')).toHaveCount(0);
});

test('the sign-up toggle switches the submit button and back', async ({ page }) => {
  await openEmailTab(page);
  await page.getByRole('button', { name: 'Need an account? Sign Up' }).click();
  await expect(page.getByRole('button', { name: 'Sign Up', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Already have an account? Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('the magic-link form validates the address before sending', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();

  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();

  await page.getByRole('textbox', { name: 'Email' }).fill('nobody@');
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByText('Invalid email address')).toBeVisible();
});

test('the code step asks for exactly 6 digits', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('otp-validation'));
  await page.getByRole('button', { name: 'Send Magic Link' }).click();

  const code = page.getByRole('textbox', { name: '6-digit code' });
  const verify = page.getByRole('button', { name: 'Verify Code & Sign In' });
  await verify.click();
  await expect(code).toHaveAccessibleDescription('OTP code is required');

  await code.fill('12a4');
  await verify.click();
  await expect(code).toHaveAccessibleDescription('OTP must be 6 digits');

  // The field itself stops at six characters.
  await code.fill('1234567');
  await expect(code).toHaveValue('123456');
});

test('the social tab: Apple and Google say when unconfigured; Facebook and GitHub are coming soon', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('tab', { name: 'Social' })).toHaveAttribute('aria-selected', 'true');

  // The e2e server configures no social provider.
  for (const provider of ['Apple', 'Google']) {
    const button = page.getByRole('button', { name: `Continue with ${provider}` });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(
      `${provider} sign-in is not configured on this server`,
    );
  }
  for (const provider of ['Facebook', 'GitHub']) {
    const button = page.getByRole('button', { name: `Continue with ${provider}` });
    await expect(button).toBeDisabled();
    await expect(button).toContainText('Coming Soon');
  }
});

test('the sign-in tabs follow the arrow keys', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Social' }).focus();

  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Email' })).toBeFocused();
  await expect(page.getByRole('tabpanel', { name: 'Email' })).toBeVisible();

  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Magic Link' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Social' })).toBeFocused();
});
