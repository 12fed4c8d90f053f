/// <reference lib="dom" />
// The audio element's source is read in the page, so this file needs the DOM types.
import { expectNoSeriousViolations } from './support/axe';
import { createCommit, createRepo } from './support/repos';
import { seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';
import { signedInAt } from './support/workspace';

/** A mid-size phone (an iPhone 14's CSS viewport). */
const PHONE = { width: 390, height: 844 };

test('a guest on a phone sends two files through an upload link with a password; the owner plays one, adds it as Version 2 and declines the other', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);
  const owner = await seedOwnerTrack(page, baseURL, 'guest-owner', 4);

  // The owner makes an 'Upload link' for main, with a password.
  await page.goto(`/projects/${owner.projectId}`);
  const section = page.getByRole('region', { name: /Sent by guests/ });
  await section.getByRole('button', { name: 'Upload link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload link' });
  await dialog.getByRole('textbox', { name: 'Link Name' }).fill('Bass takes');
  await dialog
    .getByRole('textbox', { name: 'Message to the guest (optional)' })
    .fill('Two takes of the bridge, please');
  await dialog.getByLabel('Password (optional)').fill('violet-mixdown-47');
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const urlBox = dialog.getByRole('textbox', { name: 'Upload link URL' });
  await expect(urlBox).toBeVisible();
  const url = await urlBox.inputValue();
  expect(url).toMatch(/\/upload\/[A-Za-z0-9]{22}$/);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The guest, signed out on a phone, unlocks the link and sends two files.
  const guestContext = await browser.newContext({
    viewport: PHONE,
    hasTouch: true,
    ...(baseURL ? { baseURL } : {}),
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const guest = await guestContext.newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { name: 'This link needs a password' })).toBeVisible();
  await guest.getByRole('textbox', { name: 'Password' }).fill('violet-mixdown-47');
  await guest.getByRole('button', { name: 'Unlock' }).click();
  await expect(guest.getByRole('heading', { level: 1, name: 'Bass takes' })).toBeVisible();
  await expect(guest.getByText('Two takes of the bridge, please')).toBeVisible();
  // Nothing of the project: no name, no versions.
  await expect(guest.getByText(owner.projectName)).toHaveCount(0);
  await expect(guest.getByText('Version 1')).toHaveCount(0);

  await guest.getByRole('textbox', { name: 'Your name' }).fill('Sam Session');
  await guest.getByRole('textbox', { name: 'Email (optional)' }).fill('sam@example.com');
  await guest.getByLabel('Audio files').setInputFiles([
    { name: 'Bridge take 1.wav', mimeType: 'audio/wav', buffer: toneWav(3, 330) },
    { name: 'Bridge take 2.wav', mimeType: 'audio/wav', buffer: toneWav(3, 550) },
  ]);
  await expect(guest.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(
    2,
  );
  await expectNoSeriousViolations(guest, 'the guest upload page');
  await guest.getByRole('button', { name: 'Send 2 files' }).click();
  await expect(guest.getByText('Thank you, Sam Session! Your files were sent.')).toBeVisible({
    timeout: 30_000,
  });
  // The page fits the phone: nothing scrolls sideways.
  expect(
    await guest.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
  ).toBe(true);
  await guestContext.close();

  // The owner hears of it: the bell, in the Activity panel's words.
  const bell = page.getByRole('button', { name: 'Notifications' });
  // (Its own upload's 'finished processing' may be there too.)
  await expect(page.getByTestId('notification-badge')).toHaveText(/^[23]$/, { timeout: 15_000 });
  await bell.click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await expect(
    panel.getByRole('link', {
      name: "Unread: Sam Session sent 'Bridge take 1.wav' via the upload link 'Bass takes' for main",
    }),
  ).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');

  // The files wait apart from the numbered versions; processed, they play.
  await page.reload();
  const files = page.getByRole('list', { name: 'Files from guests' });
  await expect(files.getByRole('listitem')).toHaveCount(2);
  await expect(files.getByText('Sent by Sam Session via Bass takes')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Version list' }).getByRole('listitem')).toHaveCount(
    1,
  );
  const first = files.getByRole('listitem').filter({ hasText: 'Bridge take 1.wav' });
  const second = files.getByRole('listitem').filter({ hasText: 'Bridge take 2.wav' });
  await first.getByRole('button', { name: 'Play Bridge take 1.wav' }).click({ timeout: 60_000 });
  await expect
    .poll(() => page.evaluate(() => document.querySelector('audio')?.currentSrc ?? ''))
    .toContain('/api/guest-files/');
  await expect(first.getByRole('button', { name: 'Pause Bridge take 1.wav' })).toBeVisible();

  // Added as Version 2, with a message.
  await first.getByRole('button', { name: 'Add as Version 2' }).click();
  const accept = page.getByRole('dialog', { name: 'Add as Version 2' });
  await accept.getByRole('textbox', { name: 'Version Message' }).fill('Bass from Sam');
  await accept.getByRole('button', { name: 'Add as Version 2' }).click();
  await expect(accept).toBeHidden();
  const versions = page.getByRole('list', { name: 'Version list' });
  await expect(versions.getByRole('listitem')).toHaveCount(2);
  await expect(versions.getByText('Bass from Sam')).toBeVisible();

  // The other is declined: gone, and the list is empty.
  await second.getByRole('button', { name: 'Decline' }).click();
  const confirm = page.getByRole('dialog', { name: 'Decline Bridge take 2.wav?' });
  await confirm.getByRole('button', { name: 'Decline' }).click();
  await expect(files).toHaveCount(0);
  await expect(section.getByText('No files from guests on main.', { exact: false })).toBeVisible();
  await expect(versions.getByRole('listitem')).toHaveCount(2);
});

test("a guest sends a file through a repository's upload link; the owner adds it as a bounce of main", async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  await signedInAt(page, baseURL, 'guest-repo-owner', '/repositories');
  const repo = await createRepo(page, baseURL, 'Harbour Lights');
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'First pass' });

  await page.goto(`/repositories/${repo.id}`);
  const section = page.getByRole('region', { name: /Sent by guests/ });
  await section.getByRole('button', { name: 'Upload link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload link' });
  await dialog.getByRole('textbox', { name: 'Link Name' }).fill('Masters');
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const urlBox = dialog.getByRole('textbox', { name: 'Upload link URL' });
  const url = await urlBox.inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The guest's page says nothing of the repository.
  const guestContext = await browser.newContext({
    ...(baseURL ? { baseURL } : {}),
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const guest = await guestContext.newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { level: 1, name: 'Masters' })).toBeVisible();
  await expect(guest.getByText('Harbour Lights')).toHaveCount(0);
  await guest.getByRole('textbox', { name: 'Your name' }).fill('Mo Mastering');
  await guest
    .getByLabel('Audio files')
    .setInputFiles([{ name: 'Final master.wav', mimeType: 'audio/wav', buffer: toneWav(2, 440) }]);
  await guest.getByRole('button', { name: 'Send 1 file' }).click();
  await expect(guest.getByText('Thank you, Mo Mastering! Your files were sent.')).toBeVisible({
    timeout: 30_000,
  });
  await guestContext.close();

  // Not a bounce until added; then it is one of main's, titled as the owner chose.
  await page.reload();
  const files = page.getByRole('list', { name: 'Files from guests' });
  const file = files.getByRole('listitem').filter({ hasText: 'Final master.wav' });
  await expect(file.getByText('Sent by Mo Mastering via Masters')).toBeVisible();
  await file.getByRole('button', { name: 'Add as bounce' }).click({ timeout: 60_000 });
  const accept = page.getByRole('dialog', { name: 'Add as bounce' });
  await expect(accept.getByRole('textbox', { name: 'Bounce Title' })).toHaveValue('Final master');
  await accept.getByRole('textbox', { name: 'Bounce Title' }).fill('Final master v1');
  await accept.getByRole('button', { name: 'Add as bounce' }).click();
  await expect(accept).toBeHidden();
  await expect(files).toHaveCount(0);
  await expect(
    page.getByRole('list', { name: 'Branch activity' }).getByText('Final master v1'),
  ).toBeVisible();
});
