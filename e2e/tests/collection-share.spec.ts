import type { Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { apiAs, callExpecting } from './support/api';
import { expectNoSeriousViolations } from './support/axe';
import { waitForMail } from './support/mailbox';
import { separatePage } from './support/members';
import { recordRequests } from './support/own-origin';
import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

/** The path of the share link in a recipient's email. */
async function sharePathFromMail(address: string, since: number): Promise<string> {
  const mail = await waitForMail(address, { since });
  const match = /https?:\/\/[^\s/]+(\/share\/[A-Za-z0-9]{22})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No share link in the email:\n${mail.text}`);
  expect(mail.text).not.toContain('correct horse battery');
  return match[1];
}

async function unlock(page: Page, password: string) {
  await expect(page.getByRole('heading', { name: 'This link needs a password' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

test('a collection shared with a password and two recipients: a recipient unlocks, plays through into item 2 and comments; the owner sees the receipt and the comment; revoking one link leaves the other', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);
  const since = Date.now();
  await signedInAt(page, baseURL, 'collection-share', '/collections');
  const first = await createProject(page, baseURL, 'Night Drive');
  const second = await createProject(page, baseURL, 'Harbour Lights');
  const [firstMain] = await branchesOf(page, first.id);
  const [secondMain] = await branchesOf(page, second.id);
  // Three takes of 3 seconds from two projects.
  const take = (projectId: string, branchId: string, message: string) =>
    uploadVersion(page, baseURL, { projectId, branchId, message, seconds: 3 });
  const outro = await take(second.id, secondMain!.id, 'Outro take');
  const verse = await take(first.id, firstMain!.id, 'Verse take');
  const chorus = await take(first.id, firstMain!.id, 'Chorus take');

  // A collection with the three, 'Outro take' first; moved to the end by keyboard.
  const api = apiAs(page, baseURL);
  const collection = await callExpecting(api, 201, endpoints.collections.createCollection, {
    body: { name: 'EP pitch' },
  });
  for (const versionId of [outro.versionId, verse.versionId, chorus.versionId])
    await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
      params: { id: collection.id },
      body: { version_id: versionId },
    });
  await page.goto(`/collections/${collection.id}`);
  const list = page.getByRole('list', { name: 'Collection items' });
  const titles = () => list.getByRole('listitem').allInnerTexts();
  const handle = page.getByRole('button', { name: 'Reorder "Outro take"' });
  await handle.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(handle).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByText('Moved "Outro take" to position 3 of 3')).toBeAttached();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('Verse take'),
      expect.stringContaining('Chorus take'),
      expect.stringContaining('Outro take'),
    ]);

  // 'Share collection' with a password and two recipients, each emailed their own link.
  const ana = `ana-${since}@example.com`;
  const ben = `ben-${since}@example.com`;
  await page.getByRole('button', { name: 'Share collection' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Password (optional)' }).fill('correct horse battery');
  await dialog.getByLabel('Recipients').fill(`Ana <${ana}>\nBen <${ben}>`);
  await dialog.getByLabel('Email each recipient their link').check();
  await dialog.getByRole('button', { name: 'Create links' }).click();
  await expect(dialog.getByText('2 links created.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  const anaPath = await sharePathFromMail(ana, since);
  const benPath = await sharePathFromMail(ben, since);
  expect(anaPath).not.toBe(benPath);

  // Ana opens her link: the password first (a wrong one is refused), then the collection.
  const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
  const requests = recordRequests(visitor, baseURL);
  await visitor.goto(anaPath);
  await expect(visitor.getByRole('heading', { name: 'This link needs a password' })).toBeVisible();
  await expectNoSeriousViolations(visitor, 'collection link password form');
  await unlock(visitor, 'not the password');
  await expect(visitor.getByText('Wrong password')).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'EP pitch' })).toHaveCount(0);
  await visitor.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await visitor.getByRole('button', { name: 'Unlock' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'EP pitch' })).toBeVisible();
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

  // Item 1 plays to its end and item 2 follows by itself.
  await visitor.getByRole('button', { name: 'Play “Verse take”' }).click();
  const nowPlaying = visitor.getByRole('region', { name: 'Now playing' });
  await expect(nowPlaying).toContainText('Verse take');
  await expect(nowPlaying).toContainText('Chorus take', { timeout: 20_000 });
  await expect(visitor.locator('li[aria-current="true"]')).toContainText('Chorus take');

  // A comment on item 2, at the current time, under the name the link was made for.
  await expect(visitor.getByRole('heading', { name: 'Comments on “Chorus take”' })).toBeVisible();
  const name = visitor.getByRole('textbox', { name: 'Your name' });
  await expect(name).toHaveValue('Ana');
  await visitor.getByRole('button', { name: 'Set Name' }).click();
  await visitor.getByRole('textbox', { name: /comment/i }).fill('The chorus lifts, keep it');
  await visitor.getByRole('button', { name: 'Post Comment' }).click();
  await expect(visitor.getByText('The chorus lifts, keep it')).toBeVisible();
  await expectNoSeriousViolations(visitor, 'collection share page');
  expect(requests.toOtherOrigins()).toEqual([]);

  // The owner's 'Links' tab: Ana's link heard item 1 to 90 % and has her comment.
  await page.reload();
  await page.getByRole('tab', { name: 'Links' }).click();
  await expectNoSeriousViolations(page, "collection's Links tab");
  const anaListens = page.getByRole('list', { name: 'Listens on “EP pitch for Ana”' });
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('tab', { name: 'Links' }).click();
        return anaListens.getByRole('listitem').filter({ hasText: 'Verse take' }).innerText();
      },
      { timeout: 15_000 },
    )
    .toContain('1 played to 90 %');
  const anaComments = page.getByRole('list', { name: 'Comments on “EP pitch for Ana”' });
  await expect(anaComments).toContainText('The chorus lifts, keep it');
  await expect(anaComments).toContainText('on Chorus take');
  await expect(anaComments).toContainText('Ana');
  // Ben has not listened.
  await expect(
    page.getByRole('listitem').filter({ hasText: 'For Ben' }).getByText('Not played yet'),
  ).toBeVisible();

  // Revoking Ana's link: she sees 'Link not found'; Ben's link still opens.
  await page.getByRole('button', { name: 'Revoke “EP pitch for Ana”' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(
    page.getByRole('heading', { name: /EP pitch/ }).filter({ hasText: 'Revoked' }),
  ).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByText('Link not found')).toBeVisible();

  const benPage = await separatePage(browser, baseURL, extraHTTPHeaders);
  await benPage.goto(benPath);
  await unlock(benPage, 'correct horse battery');
  await expect(benPage.getByRole('heading', { level: 1, name: 'EP pitch' })).toBeVisible();
  await expect(benPage.getByRole('button', { name: 'Play “Outro take”' })).toBeVisible();
  expect(requests.toOtherOrigins()).toEqual([]);
});
