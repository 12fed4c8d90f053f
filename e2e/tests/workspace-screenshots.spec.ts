import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

async function currentTheme(page: Page): Promise<string> {
  const classes = (await page.locator('html').getAttribute('class')) ?? '';
  return classes.split(/\s+/).includes('dark') ? 'dark' : 'light';
}

/** Picks the theme with the navbar toggle, which remembers it for the next pages. */
async function chooseTheme(page: Page, wanted: 'light' | 'dark') {
  if ((await currentTheme(page)) === wanted) return;
  await page.getByRole('button', { name: `Switch to ${wanted} theme` }).click();
  await expect.poll(() => currentTheme(page)).toBe(wanted);
}

const WIDTHS = [1280, 390] as const;
const THEMES = ['light', 'dark'] as const;

test.describe.configure({ timeout: 90_000 });

test('saves screenshots of the dashboard, project page and player at two widths in both themes', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'shots');
  const project = await createProject(page, baseURL, 'Screenshot Session');
  const [main] = await branchesOf(page, project.id);
  if (!main) throw new Error('a new project has a main branch');
  await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main.id,
    message: 'Chorus with new bass',
    tags: ['bass', 'chorus'],
  });

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of THEMES) {
      await page.goto('/dashboard');
      await chooseTheme(page, theme);
      await expect(page.getByRole('heading', { name: 'Your Projects' })).toBeVisible();
      await page.screenshot({
        path: `screenshots/dashboard-${width}-${theme}.png`,
        fullPage: true,
      });

      await page.goto(`/projects/${project.id}`);
      await expect(page.getByRole('article', { name: 'Selected version' })).toBeVisible();
      await page.screenshot({ path: `screenshots/project-${width}-${theme}.png`, fullPage: true });

      // The global player with the version loaded.
      const row = page.getByRole('list', { name: 'Version list' }).locator('li[data-version="1"]');
      await row.getByRole('button', { name: 'Play version 1' }).click();
      const player = page.getByRole('region', { name: 'Audio player' });
      await expect(player.getByTestId('player-title')).toBeVisible();
      await row.getByRole('button', { name: 'Pause version 1' }).click();
      await player.screenshot({ path: `screenshots/player-${width}-${theme}.png` });
    }
  }
});
