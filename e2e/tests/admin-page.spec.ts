import { ACCOUNT_DISABLED_MESSAGE, endpoints } from '@takes/contract';
import { ADMINS, signInByCode } from './support/admin';
import { apiWith } from './support/api';
import { seedUser } from './support/accounts';
import { expect, test } from './support/test';
import { generateWav } from './support/workspace';

test.describe.configure({ timeout: 90_000 });

test('an admin disables a person on /admin: signed out at once, refused at sign-in, back after Enable', async ({
  browser,
  page,
  baseURL,
}) => {
  const person = await browser.newContext({ baseURL });
  const credentials = await seedUser(person.request, baseURL, 'disabled-person');
  const personApi = apiWith(person.request, baseURL);
  const before = await personApi.call(endpoints.auth.getSession);
  expect(before.user?.email).toBe(credentials.email);

  await signInByCode(page, baseURL, ADMINS.people);
  await page.goto('/admin');
  const row = page.getByRole('row', { name: credentials.email });
  await row.getByRole('button', { name: 'Disable', exact: true }).click();
  await row.getByRole('radio', { name: 'Keep working' }).check();
  await row.getByRole('button', { name: /^Disable .+/ }).click();
  await expect(row.getByText('Disabled', { exact: true })).toBeVisible();

  // Their session ended on the server: the same cookie now belongs to nobody.
  const after = await personApi.call(endpoints.auth.getSession);
  expect(after.user).toBeNull();
  const refused = await person.request.post('/api/auth/sign-in/email', {
    data: credentials,
    headers: { origin: new URL(baseURL ?? '').origin },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toBe(ACCOUNT_DISABLED_MESSAGE);

  // The record of what the admin did.
  await expect(
    page.getByRole('region', { name: 'Admin actions' }).getByText(credentials.email).first(),
  ).toBeVisible();

  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row.getByText('Disabled', { exact: true })).toHaveCount(0);
  const back = await person.request.post('/api/auth/sign-in/email', {
    data: credentials,
    headers: { origin: new URL(baseURL ?? '').origin },
  });
  expect(back.status()).toBe(200);
  await person.close();
});

test('a person over the quota an admin set sees the refusal on the upload page, and their usage', async ({
  browser,
  page,
  baseURL,
}) => {
  const person = await browser.newContext({ baseURL });
  const credentials = await seedUser(person.request, baseURL, 'quota-person');

  await signInByCode(page, baseURL, ADMINS.quota);
  await page.goto('/admin');
  const row = page.getByRole('row', { name: credentials.email });
  await row.getByRole('button', { name: `Set the quota of ${credentials.email}` }).click();
  // About 10 KB: a 2-second WAV does not fit.
  await row.getByRole('textbox', { name: 'Quota (GB)' }).fill('0.00001');
  await row.getByRole('button', { name: 'Save quota' }).click();
  await expect(row.getByText(/of 10\.\d KB/)).toBeVisible();

  const personPage = await person.newPage();
  await personPage.goto('/upload');
  await expect(personPage.getByText(/0 bytes of 10\.\d KB used/)).toBeVisible();
  await personPage.getByLabel('Audio file').setInputFiles({
    name: 'Too Big.wav',
    mimeType: 'audio/wav',
    buffer: generateWav(2),
  });
  await personPage.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(
    personPage.getByText(
      /This upload would go over your storage quota by .+ \(0 bytes of 10\.\d KB used\)\./,
    ),
  ).toBeVisible();
  // Nothing was stored: the usage line still says nothing is used.
  await personPage.goto('/settings');
  await expect(personPage.getByText(/0 bytes of 10\.\d KB used/)).toBeVisible();
  await person.close();
});
