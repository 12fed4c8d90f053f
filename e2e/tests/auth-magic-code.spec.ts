import { expect, test } from './support/test';
import { localPart, uniqueEmail } from './support/accounts';
import { signInCodeFrom, signInLinkFrom, waitForMail } from './support/mailbox';

const NOTICE = 'Check your email for a magic link to sign in. The link will expire in 10 minutes.';

test('signing in with the emailed 6-digit code', async ({ page }) => {
  const email = uniqueEmail('magic-code');
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  await expect(
    page.getByText("We'll send you a secure link to sign in instantly. No password required!"),
  ).toBeVisible();

  const sentAt = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();

  await expect(page.getByText(NOTICE)).toBeVisible();
  await expect(
    page.getByText(
      'Check your email for a 6-digit code and enter it above, or click the magic link in the email.',
    ),
  ).toBeVisible();
  const codeField = page.getByRole('textbox', { name: '6-digit code' });
  await expect(codeField).toHaveAttribute('maxlength', '6');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');

  const code = signInCodeFrom(await waitForMail(email, { since: sentAt }));
  await codeField.fill(code);
  await page.getByRole('button', { name: 'Verify Code & Sign In' }).click();

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();
});

test('the link in the same email asks "Sign in as …?", then signs in and opens the dashboard', async ({
  page,
}) => {
  const email = uniqueEmail('magic-link');
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  const sentAt = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByText(NOTICE)).toBeVisible();

  const link = signInLinkFrom(await waitForMail(email, { since: sentAt }));
  // A fresh browser, as when the email is opened elsewhere: opening the link signs nobody in.
  await page.context().clearCookies();
  await page.goto(link);

  await expect(page.getByRole('heading', { name: `Sign in as ${email}?` })).toBeVisible();
  await expect(page).toHaveURL('/magic-link');
  // Signed out, the session probe answers 200 with no user (not an error the console would log).
  const probe = await page.request.get('/api/auth/session');
  expect(probe.status()).toBe(200);
  expect(await probe.json()).toEqual({ user: null, expires_at: null });
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();
});

test('a wrong code shows the server message; "← Send New Magic Link" goes back to step 1', async ({
  page,
}) => {
  const email = uniqueEmail('wrong-code');
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  const sentAt = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByText(NOTICE)).toBeVisible();

  const code = signInCodeFrom(await waitForMail(email, { since: sentAt }));
  const wrongCode = code === '000000' ? '111111' : '000000';
  await page.getByRole('textbox', { name: '6-digit code' }).fill(wrongCode);
  await page.getByRole('button', { name: 'Verify Code & Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid or expired OTP code');
  await expect(page).toHaveURL('/login');

  await page.getByRole('button', { name: '← Send New Magic Link' }).click();
  await expect(page.getByRole('button', { name: 'Send Magic Link' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
});

test('an invalid emailed link returns to /login with the OTP message', async ({ page }) => {
  await page.goto('/api/auth/magic-code/link?token=not-a-real-token');

  await expect(page).toHaveURL('/login?error=invalid_link');
  await expect(page.getByRole('alert')).toHaveText('Invalid or expired OTP code');
  await expect(page.getByRole('tab', { name: 'Magic Link' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test('an emailed link works once: opened again it shows the OTP message', async ({ page }) => {
  const email = uniqueEmail('magic-link-twice');
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  const sentAt = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  await expect(page.getByText(NOTICE)).toBeVisible();
  const link = signInLinkFrom(await waitForMail(email, { since: sentAt }));

  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/dashboard');

  await page.context().clearCookies();
  await page.goto(link);
  await expect(page).toHaveURL('/login?error=invalid_link');
  await expect(page.getByRole('alert')).toHaveText('Invalid or expired OTP code');
});
