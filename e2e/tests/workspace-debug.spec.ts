import { expect, test } from './support/test';
import { signedInAt } from './support/workspace';

test('the debug page shows a healthy server and runs a database round trip', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'debug', '/debug');

  const database = page.getByRole('region', { name: 'Database', exact: true });
  await expect(database.getByText('Dialect')).toBeVisible();
  await expect(database.getByRole('definition').first()).toHaveText(/sqlite|postgres/);
  await expect(
    page.getByRole('region', { name: 'Storage' }).getByText('ok', { exact: true }),
  ).toBeVisible();
  const ffmpeg = page.getByRole('region', { name: 'ffmpeg' });
  await expect(ffmpeg.getByText('ok', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Job queue' }).getByText('Failed')).toBeVisible();

  await page.getByRole('button', { name: 'Run round trip' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Round trip passed' })).toBeVisible();
});
