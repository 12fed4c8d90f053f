/// <reference lib="dom" />
// Page-side callbacks read the audio element and the layout, so this file needs the DOM types.
import type { Browser, Locator, Page } from '@playwright/test';
import { endpoints, type Comment } from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, apiWith, callExpecting } from './support/api';
import { expectNoSeriousViolations } from './support/axe';
import { scaledWav } from './support/cli';
import { readingsCount, startRecording, takeReadings } from './support/compare-readings';
import { recordRequests } from './support/own-origin';
import { audioTime, seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';
import { processedAll, uploadWavThrough } from './support/workspace';

const THEME_KEY = 'takes-theme';

/**
 * Drags across the waveform from one fraction of its width to another, as a person does: with the
 * waveform scrolled into the middle of the window first, clear of the player bar fixed at the
 * bottom (a drag at the window's edge lands on the player's own waveform, which seeks).
 */
async function dragAcross(page: Page, surface: Locator, from: number, to: number) {
  await surface.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = await surface.boundingBox();
  if (!box) throw new Error('no waveform box');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 4 });
  await page.mouse.up();
}

function audioPaused(page: Page): Promise<boolean> {
  return page.evaluate(() => document.querySelector('audio')?.paused ?? true);
}

/** Sets the theme the app starts in (the focused share page has no theme toggle). */
async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate(
    ([key, value]) => window.localStorage.setItem(key as string, value as string),
    [THEME_KEY, theme],
  );
  await page.reload();
}

test('review view: a dragged passage becomes a range comment that plays its passage; C comments at the current time', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const track = await seedOwnerTrack(page, baseURL, 'review', 20);
  await page.goto(
    `/projects/${track.projectId}/branches/${track.branchId}/versions/${track.versionId}`,
  );
  const surface = page.getByTestId('review-waveform-surface');
  await expect(surface).toHaveAttribute('aria-disabled', 'false');

  // Drag across 5 s → 10 s of the 20 s track: the form gets the passage.
  await dragAcross(page, surface, 0.25, 0.5);
  await expect(page.getByTestId('selection-label')).toHaveText('0:05–0:10');
  const text = page.getByRole('textbox', { name: 'Comment' });
  await expect(text).toBeFocused();
  await expect(page.getByTestId('comment-time')).toContainText('0:05–0:10');
  await text.fill('The chorus drags here');
  await page.getByRole('button', { name: 'Post Comment' }).click();
  const region = page.getByRole('button', {
    name: /^Play passage 0:05–0:10, comment by .*: The chorus drags here$/,
  });
  await expect(region).toBeVisible();

  // Choosing the region plays the passage: from its start, pausing at its end.
  await region.click();
  await expect.poll(() => audioTime(page), { timeout: 10_000 }).toBeGreaterThan(5.2);
  await expect.poll(() => audioPaused(page), { timeout: 15_000 }).toBe(true);
  const stoppedAt = await audioTime(page);
  expect(stoppedAt).toBeGreaterThan(9.5);
  expect(stoppedAt).toBeLessThan(11);

  // C (not typing): a comment at the current time.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('c');
  await expect(text).toBeFocused();
  await expect(page.getByTestId('comment-time')).toContainText(/At 0:1\d/);
  // Esc lets go of it; C again takes it back.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('comment-time')).toHaveCount(0);
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('C');
  await text.fill('Snare too loud');
  await page.getByRole('button', { name: 'Post Comment' }).click();
  await expect(
    page.getByRole('button', { name: /^Comment at 0:1\d by .*: Snare too loud$/ }),
  ).toBeVisible();

  const saved = await apiAs(page, baseURL).call(endpoints.comments.listVersionComments, {
    params: { versionId: track.versionId },
    query: { resolved: 'include' },
  });
  const byText = new Map(saved.map((c: Comment) => [c.content, c]));
  expect(byText.get('The chorus drags here')).toMatchObject({ timestamp: 5, end_timestamp: 10 });
  expect(byText.get('Snare too loud')?.end_timestamp).toBeNull();
  expect(byText.get('Snare too loud')?.timestamp).toBeGreaterThanOrEqual(9.5);

  // The readout, the status control, axe in both themes, and the screenshots.
  await expect(page.getByRole('heading', { name: 'Technical details' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Review status' })).toHaveValue('in_review');
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme);
    await expect(surface).toHaveAttribute('aria-disabled', 'false');
    await expectNoSeriousViolations(page, 'the version review view');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({
        path: `screenshots/review-view-${width}-${theme}.png`,
        fullPage: true,
      });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});

async function visitorPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  return context.newPage();
}

test("share page: a visitor's approval reaches the owner's version row; at 390 px it fits, seeks by tap, and asks no other origin", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const track = await seedOwnerTrack(page, baseURL, 'label', 20);
  const link = await callExpecting(
    apiWith(page.request, baseURL),
    201,
    endpoints.sharing.createShareLink,
    {
      params: { versionId: track.versionId },
      body: { name: 'For the label', download_enabled: false, allow_approval: true },
    },
  );

  const visitor = await visitorPage(browser, baseURL);
  const requests = recordRequests(visitor, baseURL);
  await visitor.goto(`/share/${link.hash}`);
  await expect(visitor.getByRole('heading', { level: 1, name: track.projectName })).toBeVisible();
  // Focused: no site navigation or footer; a 'Sign up' link for the visitor.
  await expect(visitor.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await expect(visitor.getByRole('contentinfo')).toHaveCount(0);
  await expect(visitor.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await expect(visitor.getByTestId('review-status')).toHaveText('In review');

  // No horizontal scroll at 390 px.
  const overflow = await visitor.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  // A tap on the waveform plays from there (half way: 10 s).
  const surface = visitor.getByTestId('review-waveform-surface');
  await expect(surface).toHaveAttribute('aria-disabled', 'false');
  await surface.tap({ position: { x: ((await surface.boundingBox())?.width ?? 0) / 2, y: 40 } });
  await expect.poll(() => audioTime(visitor), { timeout: 10_000 }).toBeGreaterThan(9.5);
  expect(await audioTime(visitor)).toBeLessThan(14);

  // Name first; nothing covers 'Set Name' or the comment form while it plays.
  const setName = visitor.getByRole('button', { name: 'Set Name' });
  await expect(setName).toBeVisible();
  const uncovered = (locator: Locator) =>
    locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      element.scrollIntoView({ block: 'center' });
      const again = element.getBoundingClientRect();
      const hit = document.elementFromPoint(again.x + again.width / 2, again.y + again.height / 2);
      return box.width > 0 && (hit === element || element.contains(hit));
    });
  expect(await uncovered(setName)).toBe(true);
  await visitor.getByRole('textbox', { name: 'Your name' }).fill('Lena from the label');
  await setName.click();
  const text = visitor.getByRole('textbox', { name: 'Comment' });
  expect(await uncovered(text)).toBe(true);

  // A visitor's range comment.
  await surface.scrollIntoViewIfNeeded();
  await dragAcross(visitor, surface, 0.1, 0.3);
  await expect(text).toBeFocused();
  await text.fill('Love this passage');
  await visitor.getByRole('button', { name: 'Post Comment' }).click();
  await expect(
    visitor.getByRole('button', {
      name: /^Play passage 0:0\d–0:0\d, comment by Lena from the label: Love this passage$/,
    }),
  ).toBeVisible();

  // The approval, under the visitor's name.
  await visitor.getByRole('button', { name: 'Approved' }).click();
  await expect(visitor.getByTestId('review-status')).toHaveText('Approved');
  expect(requests.toOtherOrigins()).toEqual([]);

  // The owner's version row says so.
  await page.goto(`/projects/${track.projectId}`);
  const row = page.locator('li[data-version="1"]');
  await expect(row.getByTestId('review-status')).toHaveText('Approved');
  const review = await apiAs(page, baseURL).call(endpoints.review.getVersionReview, {
    params: { versionId: track.versionId },
  });
  expect(review.history[0]).toMatchObject({
    status: 'approved',
    author: 'Lena from the label',
    through_link: true,
  });

  // axe in both themes at both widths, and the screenshots.
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(visitor, theme);
    for (const width of [390, 1280]) {
      await visitor.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await expect(surface).toHaveAttribute('aria-disabled', 'false');
      await expectNoSeriousViolations(visitor, `the share page at ${width} px`);
      await visitor.screenshot({
        path: `screenshots/share-page-${width}-${theme}.png`,
        fullPage: true,
      });
    }
  }
  await visitor.context().close();
});

test("compare with previous: Space switches with the position kept within 50 ms; the loudness difference is shown and matched; a stranger gets 'Version not found'", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const credentials = await seedUser(page.request, baseURL, 'compare-versions');
  const api = apiAs(page, baseURL);
  await callExpecting(api, 200, endpoints.auth.signInWithEmail, { body: credentials });
  const tone = toneWav(12, 440, 22_050);
  const upload = (wav: Buffer, fields: Record<string, string>) =>
    uploadWavThrough(api, wav, fields);
  const first = await upload(tone, { project_name: 'Compare me' });
  const second = await upload(scaledWav(tone, 0.5), {
    project_id: first.project_id,
    branch_id: first.branch_id,
    commit_message: 'Quieter mix',
  });
  await processedAll(api, [first.version_id, second.version_id]);

  await page.goto(`/projects/${first.project_id}`);
  await page.getByRole('link', { name: 'Compare Version 2 with previous' }).click();
  await expect(page).toHaveURL(
    `/projects/${first.project_id}/compare?a=${second.version_id}&b=${first.version_id}`,
  );
  await expect(
    page.getByRole('heading', { name: 'Compare Version 2 and Version 1' }),
  ).toBeVisible();
  const slotA = page.getByRole('group', { name: 'Slot A' });
  const slotB = page.getByRole('group', { name: 'Slot B' });
  await expect(slotA).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(slotB).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  // A is the quieter second version: B is about 6 LU louder, and matched.
  await expect(page.getByTestId('loudness-summary')).toHaveText(
    /^B is (5\.\d|6\.\d) LU louder than A — matched$/,
  );

  const panel = page.getByTestId('compare-panel');
  await slotA.getByRole('button', { name: 'Play A' }).click();
  await expect(panel).toHaveAttribute('data-playing', 'true');
  const readout = page.getByTestId('compare-position');
  await expect
    .poll(async () => Number(await readout.getAttribute('data-position-ms')))
    .toBeGreaterThan(1500);
  await page.getByRole('heading', { level: 1 }).click();
  await startRecording(page);
  await expect.poll(() => readingsCount(page)).toBeGreaterThan(5);
  await page.keyboard.press('Space');
  await expect(panel).toHaveAttribute('data-active-side', 'B');
  await expect.poll(() => readingsCount(page)).toBeGreaterThan(20);
  const readings = await takeReadings(page);
  const switchIndex = readings.findIndex((reading) => reading.side === 'B');
  const before = readings[switchIndex - 1];
  const after = readings[switchIndex];
  if (!before || !after) throw new Error('no readings around the switch');
  const drift = after.positionMs - before.positionMs - (after.at - before.at);
  expect(Math.abs(drift), JSON.stringify({ before, after })).toBeLessThan(50);
  await panel.getByRole('button', { name: 'Pause' }).click();

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme);
    await expect(slotA).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
    await expectNoSeriousViolations(page, 'the version compare');
  }

  // Sent to someone who is not a member: nothing of it shows.
  const stranger = await browser.newContext({ baseURL });
  const strangerPage = await stranger.newPage();
  await seedUser(strangerPage.request, baseURL, 'stranger');
  await strangerPage.goto(page.url());
  await expect(strangerPage.getByText('Version not found')).toBeVisible();
  await stranger.close();
});
