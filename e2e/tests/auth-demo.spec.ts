import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/test';

interface Session {
  user: { id: string; email: string; name: string | null };
}

/** A visitor of their own: a fresh browser context, signed out. */
async function visitor(browser: Browser, headers: Record<string, string> | undefined) {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  return { context, page: await context.newPage() };
}

async function sessionOf(page: Page): Promise<Session> {
  const response = await page.request.get('/api/auth/session');
  expect(response.ok()).toBe(true);
  return (await response.json()) as Session;
}

async function projectsOf(page: Page): Promise<{ id: string; name: string }[]> {
  const response = await page.request.get('/api/projects');
  expect(response.ok()).toBe(true);
  return (await response.json()) as { id: string; name: string }[];
}

test("'Try demo' (/login?demo=true) signs into a demo account of one's own and opens the dashboard", async ({
  page,
}) => {
  await page.goto('/login?demo=true');

  // Making the account uploads its sample (the first one in a process renders it too).
  await expect(page).toHaveURL('/dashboard', { timeout: 20_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome back, Demo Musician' }),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Account menu' }),
  ).toBeVisible();
  const { user } = await sessionOf(page);
  expect(user.email).toMatch(/@demo\.takes\.invalid$/);
});

test("two visitors who 'Try demo' get two accounts that cannot see each other's project", async ({
  browser,
  extraHTTPHeaders,
}) => {
  const first = await visitor(browser, extraHTTPHeaders);
  const second = await visitor(browser, extraHTTPHeaders);
  try {
    for (const { page } of [first, second]) {
      await page.goto('/login?demo=true');
      await expect(page).toHaveURL('/dashboard', { timeout: 20_000 });
      await expect(
        page.getByRole('heading', { level: 1, name: 'Welcome back, Demo Musician' }),
      ).toBeVisible();
    }
    const one = await sessionOf(first.page);
    const two = await sessionOf(second.page);
    expect(one.user.id).not.toBe(two.user.id);
    expect(one.user.email).not.toBe(two.user.email);

    const [mine] = await projectsOf(first.page);
    const [theirs] = await projectsOf(second.page);
    expect(mine?.name).toBe('Sample Project');
    expect(theirs?.name).toBe('Sample Project');
    expect(mine?.id).not.toBe(theirs?.id);

    // The second visitor opens the first one's project: not found, as for anyone else.
    expect((await second.page.request.get(`/api/projects/${mine?.id}`)).status()).toBe(404);
    await second.page.goto(`/projects/${mine?.id}`);
    await expect(second.page.getByText('Project not found')).toBeVisible();
    await expect(second.page.getByText('Sample Project')).toHaveCount(0);
  } finally {
    await first.context.close();
    await second.context.close();
  }
});

test("the landing page's 'Try demo' opens a demo account with its sample project", async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Try demo' }).click();

  await expect(page).toHaveURL('/dashboard', { timeout: 20_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome back, Demo Musician' }),
  ).toBeVisible();
  expect((await projectsOf(page)).map((p) => p.name)).toEqual(['Sample Project']);
});
