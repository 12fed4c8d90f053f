import { endpoints } from '@takes/contract';
import { apiAs, callExpecting } from './support/api';
import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

test('a 3-item collection from two projects: added from a project page, reordered by keyboard, kept after a reload, played in order with auto-advance', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'collections', '/collections');
  const first = await createProject(page, baseURL, 'Night Drive');
  const second = await createProject(page, baseURL, 'Harbour Lights');
  const [firstMain] = await branchesOf(page, first.id);
  const [secondMain] = await branchesOf(page, second.id);
  const intro = await uploadVersion(page, baseURL, {
    projectId: first.id,
    branchId: firstMain!.id,
    message: 'Intro take',
  });
  await uploadVersion(page, baseURL, {
    projectId: first.id,
    branchId: firstMain!.id,
    message: 'Chorus take',
  });
  const outro = await uploadVersion(page, baseURL, {
    projectId: second.id,
    branchId: secondMain!.id,
    message: 'Outro take',
  });

  // 'New Collection' on /collections, then to the collection's page.
  await page.goto('/collections');
  await expect(page.getByText('No collections yet')).toBeVisible();
  await page.getByRole('button', { name: 'New Collection' }).click();
  await page.getByLabel('Name').fill('EP pitch');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'EP pitch' })).toBeVisible();
  const collectionId = new URL(page.url()).pathname.split('/').pop()!;

  // From the project page: the selected version (the newest, 'Chorus take') goes in.
  await page.goto(`/projects/${first.id}`);
  await page.getByRole('button', { name: 'Add to collection' }).first().click();
  await page.getByRole('button', { name: 'Add to EP pitch' }).click();
  await expect(page.getByText('Added to EP pitch')).toBeVisible();
  // The other two through the API, as another tab would.
  const api = apiAs(page, baseURL);
  for (const versionId of [intro.versionId, outro.versionId])
    await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
      params: { id: collectionId },
      body: { version_id: versionId },
    });

  await page.goto(`/collections/${collectionId}`);
  const list = page.getByRole('list', { name: 'Collection items' });
  const titles = () => list.getByRole('listitem').allInnerTexts();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('Chorus take'),
      expect.stringContaining('Intro take'),
      expect.stringContaining('Outro take'),
    ]);

  // Keyboard: 'Outro take' two places up, focus staying on it, announced.
  const handle = page.getByRole('button', { name: 'Reorder "Outro take"' });
  await handle.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(handle).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.getByText('Moved "Outro take" to position 1 of 3')).toBeAttached();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('Outro take'),
      expect.stringContaining('Chorus take'),
      expect.stringContaining('Intro take'),
    ]);

  // Saved: a reload shows the same order, and the first plays in the global player.
  await page.reload();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('Outro take'),
      expect.stringContaining('Chorus take'),
      expect.stringContaining('Intro take'),
    ]);
  // 'Play all': the first plays, and at its end (a 1-second take) the next follows by itself.
  const player = page.getByRole('region', { name: 'Audio player' });
  await page.getByRole('button', { name: 'Play all' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Outro take');
  await expect(player.getByRole('button', { name: 'Next track' })).toBeEnabled();
  await expect(player.getByTestId('player-title')).toHaveText('Chorus take', { timeout: 15_000 });
  await player.getByRole('button', { name: 'Next track' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Intro take');
  await expect(player.getByRole('button', { name: 'Next track' })).toBeDisabled();
});
