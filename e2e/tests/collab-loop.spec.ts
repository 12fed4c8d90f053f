/// <reference lib="dom" />
// audioTime reads the page's <audio> element, so this file needs the DOM types.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { audioTime, createShareLink, seedOwnerTrack } from './support/sharing';

/** The page's own Play button (the global player, outside <main>, has one too). */
function pagePlayButton(page: Page) {
  return page.getByRole('main').getByRole('button', { name: 'Play', exact: true });
}

/** The navbar's bell, its badge, and the unread count it is described by. */
function bell(page: Page) {
  return page.getByRole('button', { name: 'Notifications' });
}

function badge(page: Page) {
  return page.getByTestId('notification-badge');
}

test('the collaboration loop: a visitor comments, the owner is notified live, replies, and sees the play', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);
  const owner = await seedOwnerTrack(page, baseURL, 'collab-owner', 60);
  const link = await createShareLink(page.request, baseURL, owner.versionId, {
    download_enabled: false,
  });
  const versionPath = `/projects/${owner.projectId}/branches/${owner.branchId}/versions/${owner.versionId}`;

  // The owner has the version page open (it starts playing from the start).
  await page.goto(versionPath);
  await expect(page.getByRole('heading', { level: 1, name: 'Version 1' })).toBeVisible();
  await expect(page.getByText('No comments yet.')).toBeVisible();
  await expect(badge(page)).toHaveCount(0);

  // A visitor, signed out in a context of their own, opens the link, gives a name and plays.
  const visitorContext = await browser.newContext({
    ...(baseURL ? { baseURL } : {}),
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(link.url);
  await expect(visitor.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
  await visitor.getByRole('textbox', { name: 'Your name' }).fill('Vera Visitor');
  await visitor.getByRole('button', { name: 'Set Name' }).click();
  await expect(visitor.getByText('Commenting as')).toBeVisible();

  await pagePlayButton(visitor).click();
  await expect
    .poll(() => visitor.evaluate(() => document.querySelector('audio')?.currentSrc ?? ''))
    .toContain(`/api/links/hash/${link.hash}/audio`);
  await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(3.5);

  // The link's first play is news for the owner too (in the Activity panel's words), live on the
  // bell; clear it so the comment below is the one unread notification.
  const panel = page.getByRole('region', { name: 'Notifications' });
  await expect(badge(page)).toHaveText('1', { timeout: 15_000 });
  await bell(page).click();
  await expect(
    panel.getByRole('link', {
      name: `Unread: A listener played the share link '${link.name}' for the first time`,
    }),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(badge(page)).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // It comments at the current time.
  await visitor.getByRole('button', { name: 'Attach current time' }).click();
  const attached = visitor.getByRole('button', { name: /^Remove time \d+:\d\d$/ });
  await expect(attached).toBeVisible();
  const label = ((await attached.getAttribute('aria-label')) ?? '').replace('Remove time ', '');
  const [minutes = '0', seconds = '0'] = label.split(':');
  const at = Number(minutes) * 60 + Number(seconds);
  expect(at).toBeGreaterThanOrEqual(3);
  await visitor.getByRole('textbox', { name: 'Comment' }).fill('The bridge needs more bass');
  await visitor.getByRole('button', { name: 'Post Comment' }).click();
  const onShare = visitor.getByRole('article', { name: 'Comment by Vera Visitor' });
  await expect(onShare.getByText('The bridge needs more bass')).toBeVisible();

  // Without a reload, the comment appears on the owner's page and the bell shows 1.
  const onVersion = page.getByRole('article', { name: 'Comment by Vera Visitor' });
  await expect(onVersion.getByText('The bridge needs more bass')).toBeVisible({ timeout: 15_000 });
  await expect(onVersion.getByRole('button', { name: `Play from ${label}` })).toBeVisible();
  await expect(badge(page)).toHaveText('1', { timeout: 15_000 });
  await expect(bell(page)).toHaveAccessibleDescription('1 unread');

  // The owner's page has been playing since it opened: wait until it is well past the comment's
  // time, so the seek below shows.
  await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(at + 6);

  // The bell's panel: the item opens the version at the comment's time.
  await bell(page).click();
  const item = panel.getByRole('link', {
    name: new RegExp(`Vera Visitor commented at ${label} on Version 1`),
  });
  await expect(item).toBeVisible();
  await item.click();
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${versionPath}\\?t=${at}(\\.\\d+)?$`));
  await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeLessThan(at + 3);
  await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(at - 0.5);
  // Opening it marked it read.
  await expect(badge(page)).toHaveCount(0);

  // The owner replies; the visitor's share page shows it without a reload.
  await onVersion.getByRole('button', { name: 'Reply' }).click();
  await page.getByRole('textbox', { name: 'Reply to Vera Visitor' }).fill('Agreed, will fix');
  await page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(
    page.getByRole('list', { name: 'Replies to Vera Visitor' }).getByText('Agreed, will fix'),
  ).toBeVisible();
  await expect(
    visitor.getByRole('list', { name: 'Replies to Vera Visitor' }).getByText('Agreed, will fix'),
  ).toBeVisible({ timeout: 15_000 });

  // The visitor answers with a new comment: the bell shows 1 again, and 'Mark all as read'
  // clears it.
  await visitor.getByRole('textbox', { name: 'Comment' }).fill('Thanks!');
  await visitor.getByRole('button', { name: 'Post Comment' }).click();
  await expect(page.getByText('Thanks!', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(badge(page)).toHaveText('1', { timeout: 15_000 });
  await bell(page).click();
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(badge(page)).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expect(bell(page)).not.toHaveAttribute('aria-describedby');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await visitorContext.close();

  // The link list in Quick Share shows the visitor's play.
  await page.getByRole('main').getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Quick Share' });
  const links = dialog.getByRole('region', { name: 'Links to this version' });
  await expect(links.getByText(link.name)).toBeVisible();
  await expect(links.getByText(/^Played 1 time · last played /)).toBeVisible();
});
