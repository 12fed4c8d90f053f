/// <reference lib="dom" />
// The page-side callbacks below measure elements and read layout shifts, so this file needs the
// DOM types.
import type { Browser, Locator, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { createShareLink, seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';

/** A mid-size phone (an iPhone 14's CSS viewport). */
const PHONE = { width: 390, height: 844 };

test.use({ viewport: PHONE });

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

interface Covered {
  control: string;
  box: Box;
  player: Box | null;
  hit: string;
}

/**
 * Scrolls each visible control of the page (input, textarea, button, select, and the links too,
 * in the page and its footer; not the player's own nor the sticky navbar's) as far up as the page
 * allows and reports those that still overlap the global player, or that something else covers
 * at their centre. Controls a page cannot scroll to the middle of the viewport end up at the
 * bottom of the page, which is where a missing spacer would leave them under the player.
 */
function coveredControls(page: Page): Promise<{ checked: number; covered: Covered[] }> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}[${element.getAttribute('aria-label') ?? element.getAttribute('name') ?? element.textContent?.trim().slice(0, 30) ?? ''}]`;
    const boxOf = (rect: DOMRect): Box => ({
      top: rect.top,
      bottom: rect.bottom,
      left: rect.left,
      right: rect.right,
    });
    const player = document.querySelector('section[aria-label="Audio player"]');
    const controls = Array.from(
      document.querySelectorAll('input, textarea, button, select, a[href]'),
    ).filter((element): element is HTMLElement => {
      if (!(element instanceof HTMLElement) || !element.checkVisibility()) return false;
      if (element.closest('section[aria-label="Audio player"]')) return false;
      const rect = element.getBoundingClientRect();
      return rect.width > 1 && rect.height > 1;
    });
    const covered: Covered[] = [];
    for (const control of controls) {
      control.scrollIntoView({ block: 'center', behavior: 'instant' });
      const rect = control.getBoundingClientRect();
      const playerRect = player?.getBoundingClientRect() ?? null;
      const overlaps =
        playerRect !== null &&
        rect.bottom > playerRect.top &&
        rect.top < playerRect.bottom &&
        rect.right > playerRect.left &&
        rect.left < playerRect.right;
      // A link that wraps over two lines is two boxes: its outer box's centre can fall between
      // them, on its paragraph, so probe the centre of its first line's box.
      const line = control.getClientRects()[0] ?? rect;
      const hit = document.elementFromPoint(
        (line.left + line.right) / 2,
        (line.top + line.bottom) / 2,
      );
      const reachable = hit !== null && (control === hit || control.contains(hit));
      if (overlaps || !reachable) {
        covered.push({
          control: describe(control),
          box: boxOf(rect),
          player: playerRect ? boxOf(playerRect) : null,
          hit: hit ? describe(hit) : 'nothing',
        });
      }
    }
    return { checked: controls.length, covered };
  });
}

async function expectControlsClearOfPlayer(page: Page, screen: string) {
  const { checked, covered } = await coveredControls(page);
  expect(checked, `${screen}: controls found`).toBeGreaterThan(0);
  expect(covered, `${screen}: controls under the player`).toEqual([]);
}

/** The global player's compact bar, once a track plays. */
function compactBar(page: Page): Locator {
  return page.getByTestId('compact-player');
}

async function expectCompactBarPlaying(page: Page) {
  const bar = compactBar(page);
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible({ timeout: 15_000 });
  const box = await bar.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.height).toBeLessThanOrEqual(72);
  expect(box!.y + box!.height).toBeCloseTo(PHONE.height, 0);
}

async function phonePage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    viewport: PHONE,
    ...(baseURL ? { baseURL } : {}),
  });
  return context.newPage();
}

/**
 * Sums the page's layout shifts that no recent input caused (the CLS of a page that has one
 * session window). Installed before the page's own scripts.
 */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const scope = window as unknown as { __shifts: number };
    scope.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry as PerformanceEntry & { value: number; hadRecentInput: boolean };
        if (!shift.hadRecentInput) scope.__shifts += shift.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The summed shifts, once the page has loaded everything and painted twice more. */
async function layoutShifts(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve((window as unknown as { __shifts: number }).__shifts),
          ),
        ),
      ),
  );
}

test('on a phone the player is a compact bar that never covers a form control', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000);
  const track = await seedOwnerTrack(page, baseURL, 'phone-player');

  // The version page auto-plays its version.
  await page.goto(
    `/projects/${track.projectId}/branches/${track.branchId}/versions/${track.versionId}`,
  );
  await expect(page.getByRole('heading', { name: 'Version 1' })).toBeVisible();
  await expectCompactBarPlaying(page);
  await expect(compactBar(page).getByTestId('player-title')).not.toBeEmpty();
  await expectControlsClearOfPlayer(page, 'the version page');
  await expectNoSeriousViolations(page, 'the compact player', '[data-testid="compact-player"]');

  // Expanded: today's full player as a sheet, closable.
  await compactBar(page).getByRole('button', { name: 'Expand player' }).click();
  const sheet = page.getByTestId('player-sheet');
  await expect(sheet.getByTestId('player-waveform')).toBeVisible();
  await expect(sheet.getByRole('combobox')).toBeVisible();
  await expect(sheet.getByRole('slider', { name: 'Volume' })).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Loop' })).toBeVisible();
  const sheetBox = await sheet.boundingBox();
  expect(sheetBox!.height).toBeLessThanOrEqual(PHONE.height);
  await expectNoSeriousViolations(page, 'the expanded player', '[data-testid="player-sheet"]');
  await sheet.screenshot({ path: 'screenshots/player-sheet-390.png' });
  await sheet.getByRole('button', { name: 'Collapse player' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(compactBar(page).getByRole('button', { name: 'Expand player' })).toBeFocused();

  // The project page, playing from its version list.
  await page.goto(`/projects/${track.projectId}`);
  await page.getByRole('main').getByRole('button', { name: 'Play version 1' }).first().click();
  await expectCompactBarPlaying(page);
  await expectControlsClearOfPlayer(page, 'the project page');

  // The share page a label opens: a visitor presses the page's own Play.
  const link = await createShareLink(page.request, baseURL, track.versionId, {
    download_enabled: false,
  });
  const visitor = await phonePage(browser, baseURL);
  await visitor.goto(`/share/${link.hash}`);
  await visitor.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  await expect(visitor.getByRole('main').getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(visitor.getByRole('textbox', { name: 'Your name' })).toBeVisible();
  await expectControlsClearOfPlayer(visitor, 'the share page');
  await visitor.context().close();
});

test('the login, share and dashboard pages do not shift as they load', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000);
  const visitor = await phonePage(browser, baseURL);
  await recordLayoutShifts(visitor);
  await visitor.goto('/login');
  await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await layoutShifts(visitor), '/login').toBeLessThan(0.05);

  const track = await seedOwnerTrack(page, baseURL, 'phone-shifts');
  const link = await createShareLink(page.request, baseURL, track.versionId, {
    download_enabled: false,
  });
  await visitor.goto(`/share/${link.hash}`);
  await expect(
    visitor.getByRole('main').getByRole('button', { name: 'Play', exact: true }),
  ).toBeVisible();
  expect(await layoutShifts(visitor), '/share/:hash').toBeLessThan(0.05);
  await visitor.context().close();

  await recordLayoutShifts(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Your Projects' })).toBeVisible();
  expect(await layoutShifts(page), '/dashboard').toBeLessThan(0.05);
});
