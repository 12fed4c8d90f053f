import type { Locator, Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { ADMINS, signInByCode } from './support/admin';
import { apiAs, callExpecting } from './support/api';
import {
  misfits,
  settled,
  showTheme,
  SWEEP_THEMES,
  SWEEP_WIDTHS,
  type SweepTheme,
} from './support/fit';
import { createCommit, createRepo, publishBounce } from './support/repos';
import { createShareLink, seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';
import { uploadVersion } from './support/workspace';

// Every page at the eight widths, in both themes: nothing scrolls sideways, the account menu or
// 'Sign in' stays in the window, no control of the page's main content leaves it, a checkbox keeps
// its words beside it, and the player bar never hides the end of a page. Screenshots at 390, 1280
// and 1920 go to e2e/screenshots/.

const SHOT_WIDTHS: ReadonlySet<number> = new Set([390, 1280, 1920]);

interface SweptPage {
  name: string;
  path: string;
  /** Something that shows once the page has its data. */
  ready: (page: Page) => Locator;
  /** What a person does first on the page (a checkbox), before the widths are tried. */
  prepare?: (page: Page) => Promise<void>;
}

async function sweep(page: Page, pages: SweptPage[]): Promise<string[]> {
  const found: string[] = [];
  for (const swept of pages) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(swept.path);
    await expect(swept.ready(page), swept.name).toBeVisible({ timeout: 60_000 });
    await swept.prepare?.(page);
    for (const width of SWEEP_WIDTHS) {
      await page.setViewportSize({ width, height: width < 768 ? 800 : 900 });
      for (const theme of SWEEP_THEMES) {
        await showTheme(page, theme);
        await settled(page);
        for (const problem of await misfits(page))
          found.push(`${swept.name} at ${width} px (${theme}): ${problem}`);
        if (SHOT_WIDTHS.has(width)) await shoot(page, swept.name, width, theme);
      }
    }
  }
  return found;
}

function shoot(page: Page, name: string, width: number, theme: SweepTheme) {
  return page.screenshot({
    path: `screenshots/width-${name}-${width}-${theme}.png`,
    fullPage: true,
  });
}

test.describe.configure({ timeout: 240_000 });

test('every signed-in page fits every width, in both themes', async ({ page, baseURL }) => {
  const owner = await seedOwnerTrack(page, baseURL, 'every-width', 4);
  const api = apiAs(page, baseURL);
  const collection = await callExpecting(api, 201, endpoints.collections.createCollection, {
    body: { name: 'Sweep Picks' },
  });
  await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
    params: { id: collection.id },
    body: { version_id: owner.versionId },
  });
  const repo = await createRepo(page, baseURL, 'Sweep Sessions');
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'First bounce' });
  await publishBounce(page, baseURL, { repoId: repo.id, branch: 'main', title: 'Sweep bounce' });
  const versionPath = `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${owner.versionId}`;
  // A second version of the branch, aligned with the first (whose comment it carries), for the
  // review view with earlier versions' comments and the compare view with its 'Changes' lane.
  await callExpecting(api, 201, endpoints.comments.addVersionComment, {
    params: { versionId: owner.versionId },
    body: { content: 'Carried across widths', timestamp: 1 },
  });
  const second = await uploadVersion(page, baseURL, {
    projectId: owner.projectId,
    branchId: owner.branchId,
    message: 'Second take',
    seconds: 5,
  });
  const secondPath = `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${second.versionId}`;
  const blind = await callExpecting(api, 201, endpoints.blindTests.createBlindTest, {
    params: { projectId: owner.projectId },
    body: {
      version_ids: [owner.versionId, second.versionId],
      mode: 'both',
      trials: 5,
      name: 'Sweep blind test',
    },
  });

  const main = (p: Page) => p.getByRole('main');
  const found = await sweep(page, [
    {
      name: 'dashboard',
      path: '/dashboard',
      ready: (p) => main(p).getByText(owner.projectName).first(),
    },
    {
      name: 'project',
      path: `/projects/${owner.projectId}`,
      ready: (p) => main(p).getByText('Version 1').first(),
    },
    { name: 'version', path: versionPath, ready: (p) => main(p).getByText('Show resolved') },
    {
      name: 'version-previous-comments',
      path: secondPath,
      ready: (p) => main(p).getByText('Show comments from previous versions'),
      prepare: async (p) => {
        await main(p)
          .getByRole('checkbox', { name: 'Show comments from previous versions' })
          .check();
        await expect(
          main(p).getByRole('list', { name: 'Comments' }).getByText('from Version 1 at 0:01'),
        ).toBeVisible({
          timeout: 60_000,
        });
      },
    },
    {
      name: 'blind-test-results',
      path: `/projects/${owner.projectId}/blind-tests/${blind.id}`,
      ready: (p) => main(p).getByRole('heading', { level: 1, name: 'Sweep blind test' }),
    },
    {
      name: 'compare',
      path: `/projects/${owner.projectId}/compare?a=${second.versionId}&b=${owner.versionId}`,
      ready: (p) => p.locator('[data-testid="changes-lane"][data-status="ready"]'),
    },
    { name: 'upload', path: '/upload', ready: (p) => main(p).getByRole('heading', { level: 1 }) },
    {
      name: 'repositories',
      path: '/repositories',
      ready: (p) => main(p).getByText('Sweep Sessions').first(),
    },
    {
      name: 'repository',
      path: `/repositories/${repo.id}`,
      ready: (p) => main(p).getByText('Sweep bounce').first(),
    },
    { name: 'bounces', path: '/bounces', ready: (p) => main(p).getByText('Sweep bounce').first() },
    {
      name: 'collections',
      path: '/collections',
      ready: (p) => main(p).getByText('Sweep Picks').first(),
    },
    {
      name: 'collection',
      path: `/collections/${collection.id}`,
      ready: (p) => main(p).getByText(owner.projectName).first(),
    },
    {
      name: 'settings',
      path: '/settings',
      ready: (p) => main(p).getByRole('heading', { level: 1 }),
    },
    { name: 'profile', path: '/profile', ready: (p) => main(p).getByRole('heading', { level: 1 }) },
    {
      name: 'notifications',
      path: '/notifications',
      ready: (p) => main(p).getByRole('heading', { level: 1 }),
    },
    {
      name: 'search',
      path: `/search?q=${encodeURIComponent(owner.projectName)}`,
      ready: (p) => main(p).getByText(owner.projectName).first(),
    },
  ]);
  expect(found).toEqual([]);

  // With a track in the player (the full bar, taller than the idle one), on the version page.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(versionPath);
  await expect(main(page).getByText('Show resolved')).toBeVisible();
  await main(page).getByRole('button', { name: 'Play' }).first().click();
  // The track is in the bar (whether the audio has started yet does not change its size).
  const bar = page.getByRole('region', { name: 'Audio player' });
  await expect(bar.getByRole('button', { name: /^(Play|Pause)$/ })).toBeVisible();
  await expect(bar).not.toContainText('No track currently playing');
  const playing: string[] = [];
  for (const width of SWEEP_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await settled(page);
    for (const problem of await misfits(page))
      playing.push(`version, playing, at ${width} px: ${problem}`);
  }
  expect(playing).toEqual([]);
});

test('the admin page fits every width, in both themes', async ({ page, baseURL }) => {
  // A person with a project, so the People table has a row besides the admin's own.
  const owner = await seedOwnerTrack(page, baseURL, 'every-width-admin', 2);
  await page.context().clearCookies();
  await signInByCode(page, baseURL, ADMINS.sweep);
  const main = (p: Page) => p.getByRole('main');
  const found = await sweep(page, [
    {
      name: 'admin',
      path: '/admin',
      ready: (p) => main(p).getByRole('row', { name: owner.credentials.email }),
    },
  ]);
  expect(found).toEqual([]);
});

test('every public page fits every width, in both themes', async ({ page, baseURL, browser }) => {
  const owner = await seedOwnerTrack(page, baseURL, 'every-width-public', 4);
  const link = await createShareLink(page.request, baseURL, owner.versionId, {
    name: 'Sweep link',
    download_enabled: true,
  });
  const second = await uploadVersion(page, baseURL, {
    projectId: owner.projectId,
    branchId: owner.branchId,
    message: 'Second take',
    seconds: 4,
  });
  const blind = await callExpecting(
    apiAs(page, baseURL),
    201,
    endpoints.blindTests.createBlindTest,
    {
      params: { projectId: owner.projectId },
      body: {
        version_ids: [owner.versionId, second.versionId],
        mode: 'both',
        trials: 5,
        name: 'Sweep blind test',
      },
    },
  );
  const uploadLink = await callExpecting(
    apiAs(page, baseURL),
    201,
    endpoints.guestUploads.createUploadLink,
    {
      params: { projectId: owner.projectId },
      body: { branch_id: owner.branchId, name: 'Sweep upload link', message: 'Send your takes' },
    },
  );
  const invite = await callExpecting(
    apiAs(page, baseURL),
    201,
    endpoints.inviteLinks.createInviteLink,
    { params: { projectId: owner.projectId }, body: { name: 'Sweep invite', role: 'viewer' } },
  );
  const visitorContext = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': '10.250.1.1' },
  });
  const visitor = await visitorContext.newPage();
  const heading = (p: Page) => p.getByRole('main').getByRole('heading', { level: 1 }).first();
  try {
    const found = await sweep(visitor, [
      { name: 'landing', path: '/', ready: heading },
      {
        name: 'sign-in',
        path: '/login',
        ready: heading,
      },
      { name: 'about', path: '/about', ready: heading },
      { name: 'blog', path: '/blog', ready: heading },
      { name: 'download', path: '/download', ready: heading },
      {
        name: 'blind-test',
        path: new URL(blind.url).pathname,
        ready: (p) =>
          p.getByRole('group', { name: 'Options' }).getByRole('button', { name: 'Play X' }),
      },
      {
        name: 'upload-link',
        path: new URL(uploadLink.url).pathname,
        ready: (p) => p.getByRole('button', { name: 'Send 0 files' }),
      },
      { name: 'join', path: new URL(invite.url, baseURL).pathname, ready: heading },
      {
        name: 'share',
        path: new URL(link.url, baseURL).pathname,
        ready: (p) => p.getByRole('main').getByText(owner.projectName).first(),
      },
    ]);
    expect(found).toEqual([]);
  } finally {
    await visitorContext.close();
  }
});
