import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type Theme = 'light' | 'dark';

export async function currentTheme(page: Page): Promise<Theme> {
  const classes = (await page.locator('html').getAttribute('class')) ?? '';
  return classes.split(/\s+/).includes('dark') ? 'dark' : 'light';
}

/** Picks the theme with the navbar toggle, which remembers it for the next pages. */
export async function chooseTheme(page: Page, wanted: Theme) {
  if ((await currentTheme(page)) === wanted) return;
  await page.getByRole('button', { name: `Switch to ${wanted} theme` }).click();
  await expect.poll(() => currentTheme(page)).toBe(wanted);
}

/**
 * Runs axe on the page (or only inside `include`, a CSS selector) and fails on any serious or
 * critical violation, naming the rule and the elements.
 */
export async function expectNoSeriousViolations(
  page: Page,
  screen: string,
  include?: string,
): Promise<void> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious, `${screen} in the ${await currentTheme(page)} theme`).toEqual([]);
}
