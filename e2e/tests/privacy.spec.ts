import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { localPart, newCredentials, uniqueEmail } from './support/accounts';
import { signInCodeFrom, waitForMail } from './support/mailbox';
import { recordRequests } from './support/own-origin';

// The product promises that the web app talks only to its own origin: no CDN, fonts or analytics.
const ROUTES = [
  '/',
  '/about',
  '/login',
  '/404',
  '/dashboard',
  '/profile',
  '/settings',
  '/desktop-return',
  '/definitely/not/here',
];

for (const route of ROUTES) {
  test(`${route} makes no request to another origin`, async ({ page, baseURL }) => {
    const requests = recordRequests(page, baseURL);

    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Let anything the rendered page starts (images, fonts, lazy chunks) go out before checking.
    await page.waitForLoadState('networkidle');

    expect(requests.all().length, 'the page should have loaded something').toBeGreaterThan(0);
    expect(requests.toOtherOrigins(), `requests to other origins from ${route}`).toEqual([]);
  });
}

async function expectOnlyOwnOrigin(page: Page, requests: ReturnType<typeof recordRequests>) {
  await page.waitForLoadState('networkidle');
  expect(requests.toOtherOrigins(), 'requests to other origins during the flow').toEqual([]);
}

test('signing up, visiting the account pages and signing out make no request to another origin', async ({
  page,
  baseURL,
}) => {
  const requests = recordRequests(page, baseURL);
  const { email, password } = newCredentials('privacy-sign-up');

  await page.goto('/login');
  // Every tab renders (the social one asks which providers exist).
  for (const tab of ['Social', 'Email', 'Magic Link']) {
    await page.getByRole('tab', { name: tab }).click();
  }
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('button', { name: 'Need an account? Sign Up' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByText(email)).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  await expectOnlyOwnOrigin(page, requests);
});

test('signing in with an emailed code makes no request to another origin', async ({
  page,
  baseURL,
}) => {
  const requests = recordRequests(page, baseURL);
  const email = uniqueEmail('privacy-code');

  await page.goto('/login');
  await page.getByRole('tab', { name: 'Magic Link' }).click();
  const sentAt = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  const code = signInCodeFrom(await waitForMail(email, { since: sentAt }));
  await page.getByRole('textbox', { name: '6-digit code' }).fill(code);
  await page.getByRole('button', { name: 'Verify Code & Sign In' }).click();
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${localPart(email)}` }),
  ).toBeVisible();

  await expectOnlyOwnOrigin(page, requests);
});

test("'Try demo' makes no request to another origin", async ({ page, baseURL }) => {
  const requests = recordRequests(page, baseURL);

  await page.goto('/login?demo=true');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back, / })).toBeVisible();

  await expectOnlyOwnOrigin(page, requests);
});
