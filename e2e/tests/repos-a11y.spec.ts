import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createCommit, createRepo, publishBounce } from './support/repos';
import { expect, test } from './support/test';
import { signedInAt } from './support/workspace';

async function theme(page: Page): Promise<string> {
  const classes = (await page.locator('html').getAttribute('class')) ?? '';
  return classes.split(/\s+/).includes('dark') ? 'dark' : 'light';
}

async function chooseTheme(page: Page, wanted: 'light' | 'dark') {
  if ((await theme(page)) === wanted) return;
  await page.getByRole('button', { name: `Switch to ${wanted} theme` }).click();
  await expect.poll(() => theme(page)).toBe(wanted);
}

async function expectNoSeriousViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious, `${screen} in the ${await theme(page)} theme`).toEqual([]);
}

test('the repository and bounces screens have no serious or critical axe violations', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signedInAt(page, baseURL, 'repos-axe');
  const repo = await createRepo(page, baseURL, 'Accessible Repo');
  const commit = await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'Take 1' });
  await publishBounce(page, baseURL, { repoId: repo.id, branch: 'main', title: 'Take one' });
  await publishBounce(page, baseURL, { repoId: repo.id, branch: 'main', title: 'Take one' });

  for (const dark of [false, true]) {
    await page.goto('/repositories');
    await chooseTheme(page, dark ? 'dark' : 'light');
    await expect(page.getByRole('link', { name: 'Accessible Repo' })).toBeVisible();
    await expectNoSeriousViolations(page, 'repositories');

    await page.goto(`/repositories/${repo.id}`);
    await expect(page.getByRole('heading', { name: 'Commit History (1)' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Now previewing' })).toBeVisible();
    await expectNoSeriousViolations(page, 'repository');

    await page.goto(`/repositories/${repo.id}/commit/${commit.sha}`);
    await expect(page.getByRole('article')).toHaveCount(2);
    await expectNoSeriousViolations(page, 'commit');

    await page.goto('/bounces');
    await page.getByRole('button', { name: 'View versions' }).click();
    await expect(page.getByRole('list', { name: 'Versions of Take one' })).toBeVisible();
    await expectNoSeriousViolations(page, 'bounces');
  }
});
