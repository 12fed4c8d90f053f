import { createCommit, createRepo, publishBounce } from './support/repos';
import { expect, test } from './support/test';
import { signedInAt } from './support/workspace';

test('the bounces page groups recent bounces and plays them', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signedInAt(page, baseURL, 'bounces-page', '/bounces');
  await expect(page.getByRole('heading', { name: 'Bounces', level: 1 })).toBeVisible();
  await expect(page.getByText('Recent audio across repos and projects')).toBeVisible();
  await expect(
    page.getByText('No recent bounces found. Publish a bounce from the desktop app.'),
  ).toBeVisible();
  await expect(page).toHaveTitle('Bounces · Takes');

  const repo = await createRepo(page, baseURL, 'Harbour Lights');
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'First pass' });
  await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Chorus',
    seconds: 2,
  });
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'Second pass' });
  await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Chorus',
    seconds: 3,
  });
  await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Bridge',
    seconds: 2,
  });

  await page.reload();
  const cards = page.getByRole('list', { name: 'Recent bounces' }).getByRole('article');
  await expect(cards).toHaveCount(2);
  const chorus = page.getByRole('article', { name: 'Chorus' });
  await expect(chorus).toContainText('Harbour Lights');
  await expect(chorus).toContainText('0:03');
  await expect(chorus.getByRole('link', { name: 'Open repo' })).toHaveAttribute(
    'href',
    `/repositories/${repo.id}`,
  );
  await expect(chorus.locator('[data-testid="bounce-waveform"] canvas').first()).toBeAttached();
  const bridge = page.getByRole('article', { name: 'Bridge' });
  await expect(bridge.getByRole('button', { name: 'View versions' })).toHaveCount(0);

  // Older versions expand per group; a row plays on click and becomes the card's version.
  await chorus.getByRole('button', { name: 'View versions' }).click();
  const versions = chorus.getByRole('list', { name: 'Versions of Chorus' });
  await expect(versions.getByRole('button')).toHaveCount(2);
  await versions.getByRole('button').nth(1).click();
  const player = page.getByRole('region', { name: 'Audio player' });
  await expect(player.getByTestId('player-title')).toHaveText('Chorus');
  await chorus.getByRole('button', { name: 'Hide versions' }).click();
  await expect(versions).toHaveCount(0);
  await expect(chorus).toContainText('0:02');

  // The card's play overlay plays the Bridge; its waveform seeks the player.
  await bridge.getByRole('button', { name: 'Play Bridge' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Bridge');
  await bridge.getByRole('slider', { name: 'Seek Bridge' }).click({ position: { x: 5, y: 40 } });
  await expect(bridge.getByRole('button', { name: 'Pause Bridge' })).toBeVisible();

  await chorus.getByRole('link', { name: 'Open repo' }).click();
  await expect(page).toHaveURL(`/repositories/${repo.id}`);
});
