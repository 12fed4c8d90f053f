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

test("the landing page's 'Try demo' opens the demo account with its sample project", async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Try demo' }).click();

  await expect(page).toHaveURL('/dashboard');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome back, Demo Musician' }),
  ).toBeVisible();
  const projects = await page.request.get('/api/projects');
  expect(projects.ok()).toBe(true);
  expect(((await projects.json()) as { name: string }[]).map((p) => p.name)).toEqual([
    'Sample Project',
  ]);
});
