import type { Page } from '@playwright/test';
import { SubsonicAPI } from 'subsonic-api';
import { chooseTheme, expectNoSeriousViolations } from './support/axe';
import { misfits, settled } from './support/fit';
import { seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';

// The car test (issue 45): a key made on Settings → Devices → 'Add a player app' lets a Subsonic
// player app, here the `subsonic-api` client with OpenSubsonic API-key sign-in, reach the server
// at the address the page shows and find the person's project as an album; 'Revoke' ends it
// (Subsonic error 44). On a 390 px phone: no sideways scroll, axe clean.

test.describe.configure({ timeout: 90_000 });

async function fitsAndPasses(page: Page, screen: string) {
  await settled(page);
  expect(await misfits(page), screen).toEqual([]);
  await expectNoSeriousViolations(page, screen);
}

test('a player app plays the latest mixes with a key from Settings, until it is revoked', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const owner = await seedOwnerTrack(page, baseURL, 'player-apps', 3);

  await page.goto('/settings');
  const part = page.getByRole('region', { name: 'Player apps' });
  await expect(part.getByText('No player app has a key yet.')).toBeVisible();
  await fitsAndPasses(page, 'settings with no player app');

  await part.getByRole('button', { name: 'Add a player app' }).click();
  const form = part.getByRole('form', { name: 'Add a player app' });
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await form.getByRole('textbox', { name: 'Name' }).fill('Car');
  await fitsAndPasses(page, "the 'Add a player app' form");
  await form.getByRole('button', { name: 'Create key' }).click();

  const created = part.getByRole('group', { name: 'Key for Car' });
  await expect(created.getByText('Copy this key now: it is shown only once.')).toBeVisible();
  const serverAddress = await created.getByRole('textbox', { name: 'Server address' }).inputValue();
  const apiKey = await created.getByRole('textbox', { name: 'API key' }).inputValue();
  expect(serverAddress).toMatch(/^https?:\/\//);
  expect(apiKey.length).toBeGreaterThan(16);
  await expect(part.getByRole('listitem', { name: 'Car' })).toContainText('Never used');
  await fitsAndPasses(page, 'the new key with the server address');
  await chooseTheme(page, 'dark');
  await fitsAndPasses(page, 'the new key with the server address');
  await chooseTheme(page, 'light');

  // What a player app does with them: sign in with the key, then list the newest albums.
  const player = new SubsonicAPI({ url: serverAddress, auth: { apiKey } });
  const ping = await player.ping();
  expect(ping.status, JSON.stringify(ping)).toBe('ok');
  const newest = await player.getAlbumList2({ type: 'newest' });
  expect(newest.status, JSON.stringify(newest)).toBe('ok');
  expect((newest.albumList2.album ?? []).map((album) => album.name)).toContain(owner.projectName);

  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'API key' })).toHaveCount(0);
  await expect(part.getByRole('button', { name: 'Add a player app' })).toBeFocused();

  // Read again, the list says when the key was last used, and by which app.
  await page.reload();
  const row = part.getByRole('listitem', { name: 'Car' });
  await expect(row).toContainText(/Last used just now by subsonic-api/);
  const prefix = /Key (\S+)…/.exec((await row.textContent()) ?? '')?.[1] ?? '';
  expect(prefix.length).toBeGreaterThan(0);
  expect(apiKey.startsWith(prefix), `${apiKey} starts with ${prefix}`).toBe(true);
  await fitsAndPasses(page, 'settings with a player app');

  await row.getByRole('button', { name: 'Revoke Car' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke player app' });
  await fitsAndPasses(page, "the 'Revoke player app' dialog");
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(part.getByText('Car was revoked.', { exact: false })).toBeVisible();
  await expect(part.getByText('No player app has a key yet.')).toBeVisible();

  expect(await player.ping()).toMatchObject({ status: 'failed', error: { code: 44 } });
});
