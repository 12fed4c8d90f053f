import { expect, test } from './support/test';
import { ADMINS, signInByCode } from './support/admin';
import { signedInAt } from './support/workspace';

const ADMIN = ADMINS.debug;

test('the admin page shows the admin a healthy server and runs a database round trip (/debug leads there)', async ({
  page,
  baseURL,
}) => {
  await signInByCode(page, baseURL, ADMIN);
  await page.goto('/debug');
  await expect(page).toHaveURL(/\/admin#health$/);

  const database = page.getByRole('region', { name: 'Database', exact: true });
  await expect(database.getByText('Dialect')).toBeVisible();
  await expect(database.getByRole('definition').first()).toHaveText(/sqlite|postgres/);
  await expect(
    page.getByRole('region', { name: 'Storage', exact: true }).getByText('ok', { exact: true }),
  ).toBeVisible();
  const ffmpeg = page.getByRole('region', { name: 'ffmpeg', exact: true });
  await expect(ffmpeg.getByText('ok', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Job queue' }).getByText('Failed')).toBeVisible();

  await page.getByRole('button', { name: 'Run round trip' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Round trip passed' })).toBeVisible();
});

test('the admin page tells any other user it is for the server’s administrators', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'debug', '/admin');
  await expect(
    page.getByText('The admin page is only available to the administrators of this Takes server.', {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Database', exact: true })).toHaveCount(0);
  for (const path of ['/api/debug', '/api/admin/users', '/api/admin/signups']) {
    const direct = await page.request.get(path);
    expect(direct.status(), path).toBe(404);
  }
});
