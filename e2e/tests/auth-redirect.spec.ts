import { expect, test } from './support/test';
import { seedUser, signInWithPassword } from './support/accounts';

test('a protected page sends a signed-out visitor to /login and back after signing in', async ({
  page,
  request,
  baseURL,
}) => {
  const credentials = await seedUser(request, baseURL, 'return-to-origin');
  await page.goto('/projects/x');
  await expect(page).toHaveURL('/login');

  await signInWithPassword(page, credentials);

  await expect(page).toHaveURL('/projects/x');
});

test('the remembered origin keeps its query string', async ({ page, request, baseURL }) => {
  const credentials = await seedUser(request, baseURL, 'return-with-query');
  await page.goto('/repositories?sort=name');
  await expect(page).toHaveURL('/login');

  await signInWithPassword(page, credentials);

  await expect(page).toHaveURL('/repositories?sort=name');
});

test('a signed-in visitor to /login goes to the dashboard', async ({ page, request, baseURL }) => {
  const credentials = await seedUser(request, baseURL, 'leaves-login');
  await page.goto('/login');
  await signInWithPassword(page, credentials);
  await expect(page).toHaveURL('/dashboard');

  await page.goto('/login');

  await expect(page).toHaveURL('/dashboard');
});
