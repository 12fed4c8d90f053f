import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ADMINS, signInByCode } from './support/admin';
import { branchesOf, createProject, uploadVersion } from './support/workspace';

async function expectNoSeriousViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious, `${screen} in the ${await theme(page)} theme`).toEqual([]);
}

async function theme(page: Page): Promise<string> {
  const classes = (await page.locator('html').getAttribute('class')) ?? '';
  return classes.split(/\s+/).includes('dark') ? 'dark' : 'light';
}

/** Picks the theme with the navbar toggle, which remembers it for the next pages. */
async function chooseTheme(page: Page, wanted: 'light' | 'dark') {
  if ((await theme(page)) === wanted) return;
  await page.getByRole('button', { name: `Switch to ${wanted} theme` }).click();
  await expect.poll(() => theme(page)).toBe(wanted);
}

test.describe.configure({ timeout: 90_000 });

test('the workspace screens have no serious or critical axe violations', async ({
  page,
  baseURL,
}) => {
  // An instance admin, so the debug page shows its report (others are told it is not for them).
  await signInByCode(page, baseURL, ADMINS.axe);
  const project = await createProject(page, baseURL, 'Accessible Tune');
  const [main] = await branchesOf(page, project.id);
  if (!main) throw new Error('a new project has a main branch');
  await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'first pass',
    tags: ['axe'],
  });

  for (const dark of [false, true]) {
    await page.goto('/dashboard');
    await chooseTheme(page, dark ? 'dark' : 'light');

    await expect(page.getByRole('heading', { name: 'Your Projects' })).toBeVisible();
    await expectNoSeriousViolations(page, 'dashboard');

    await page.getByRole('link', { name: 'Upload', exact: true }).first().click();
    await expect(page.getByRole('tab', { name: 'New Track' })).toBeVisible();
    await expectNoSeriousViolations(page, 'upload');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await page.getByRole('table').getByRole('link', { name: 'Accessible Tune' }).click();
    await expect(page.getByRole('article', { name: 'Selected version' })).toBeVisible();
    await expectNoSeriousViolations(page, 'project');

    const search = page.getByRole('searchbox', { name: 'Search tracks, artists, or projects' });
    await search.fill('axe');
    await search.press('Enter');
    await expect(page.getByRole('region', { name: 'Versions' })).toBeVisible();
    await expectNoSeriousViolations(page, 'search');

    await page.goto('/debug');
    await expect(page.getByRole('region', { name: 'Job queue' })).toBeVisible();
    await expectNoSeriousViolations(page, 'debug');
  }
});
