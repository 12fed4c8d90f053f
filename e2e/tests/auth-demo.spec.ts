import { expect, test } from './support/test';

test("'Try demo' (/login?demo=true) signs into the demo account and opens the dashboard", async ({
  page,
}) => {
  await page.goto('/login?demo=true');

  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back, / })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Account menu' }),
  ).toBeVisible();
});
