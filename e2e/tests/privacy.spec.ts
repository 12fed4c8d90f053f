import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { localPart, newCredentials, uniqueEmail } from './support/accounts';
import { signInCodeFrom, waitForMail } from './support/mailbox';
import { recordRequests } from './support/own-origin';
import { createCommit, createRepo, publishBounce } from './support/repos';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

// The product promises that the web app talks only to its own origin: no CDN, fonts or analytics.
// Every public route of the spec's route table, the pages it links to, and some signed-out
// visits to signed-in routes.
const ROUTES = [
  '/',
  '/login',
  '/about',
  '/roadmap',
  '/features',
  '/contact',
  '/careers',
  '/download',
  '/desktop-return',
  '/blog',
  '/terms',
  '/privacy',
  '/copyright',
  '/cookies',
  '/pricing',
  '/resources',
  '/mobile',
  '/404',
  '/dashboard',
  '/profile',
  '/settings',
  '/repositories',
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

test('a blog post makes no request to another origin', async ({ page, baseURL }) => {
  const requests = recordRequests(page, baseURL);
  await page.goto('/blog');
  await page.getByRole('main').getByRole('link').first().click();
  await expect(page.getByRole('link', { name: 'Back to all posts' })).toBeVisible();
  await expectOnlyOwnOrigin(page, requests);
});

test('a signed-in tour of the app (projects, versions, repositories, compare, bounces) makes no request to another origin', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const requests = recordRequests(page, baseURL);
  await signedInAt(page, baseURL, 'privacy-tour');
  const project = await createProject(page, baseURL, 'Privacy Tour');
  const [main] = await branchesOf(page, project.id);
  if (!main) throw new Error('a new project has its main branch');
  const version = await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'First take',
  });
  const repo = await createRepo(page, baseURL, 'Tour Repo');
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'Rough mix' });
  const first = await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Mix',
  });
  await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Mix',
    frequency: 660,
  });

  const stops: [string, string | RegExp][] = [
    ['/dashboard', /^Welcome back, /],
    ['/upload', /./],
    [`/projects/${project.id}`, 'Privacy Tour'],
    [`/projects/${project.id}/branches/${version.branchId}/versions/${version.versionId}`, /./],
    ['/search?q=Privacy', /./],
    ['/repositories', /./],
    [`/repositories/${repo.id}`, /./],
    [`/repositories/${repo.id}/commit/${first.commit_sha}`, /^Commit/],
    [`/repositories/${repo.id}/branch/main`, 'Branch: main'],
    ['/bounces', 'Bounces'],
    ['/profile', /./],
    ['/settings', 'Settings'],
  ];
  for (const [path, heading] of stops) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  // Play a bounce in the global player: its audio comes from our own origin too.
  await page.goto('/bounces');
  await page.getByRole('button', { name: /^Play/ }).first().click();
  await expect(page.getByRole('button', { name: /^Pause/ }).first()).toBeVisible();

  await expectOnlyOwnOrigin(page, requests);
  expect(requests.all().some((url) => url.includes('/stream'))).toBe(true);
});
