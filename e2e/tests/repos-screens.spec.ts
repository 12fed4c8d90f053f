import { createCommit, createRepo, publishBounce, tinyPng } from './support/repos';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';
import { signedInAt } from './support/workspace';

test('the repositories list: empty state, rows with counts, case-insensitive search', async ({
  page,
  baseURL,
}) => {
  await signedInAt(page, baseURL, 'repos-list', '/repositories');
  await expect(page.getByRole('heading', { name: 'Repositories', level: 1 })).toBeVisible();
  await expect(page.getByText('No repositories yet.')).toBeVisible();
  await expect(page).toHaveTitle('Repositories · Takes');

  const alpha = await createRepo(page, baseURL, 'Alpha Sessions');
  await createRepo(page, baseURL, 'Beta Tapes');
  await createCommit(page, baseURL, alpha.id, { branch: 'main', message: 'Drums in' });
  await publishBounce(page, baseURL, { repoId: alpha.id, branch: 'main', title: 'Drum bus' });

  await page.reload();
  const row = page.getByRole('row', { name: /Alpha Sessions/ });
  await expect(row.getByRole('cell').nth(1)).toHaveText(/just now|minute/);
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');

  const search = page.getByRole('searchbox', { name: 'Search repositories' });
  await search.fill('bETA');
  await expect(page.getByRole('link', { name: 'Beta Tapes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Alpha Sessions' })).toHaveCount(0);
  await search.fill('no such thing');
  await expect(page.getByText('No matches for your search.')).toBeVisible();
  await search.fill('alpha');
  await page.getByRole('link', { name: 'Alpha Sessions' }).click();
  await expect(page).toHaveURL(`/repositories/${alpha.id}`);
  await expect(page.getByRole('heading', { name: 'Alpha Sessions', level: 1 })).toBeVisible();
});

test('the repository page: history, playback, pull, cover, publishing, and the commit page', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signedInAt(page, baseURL, 'repo-page');
  const repo = await createRepo(page, baseURL, 'Night Drive');
  const first = await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'Rough' });
  await publishBounce(page, baseURL, { repoId: repo.id, branch: 'main', title: 'Rough mix' });
  const second = await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'Vocals' });

  await page.goto(`/repositories/${repo.id}`);
  await expect(page).toHaveTitle('Night Drive · Takes');
  await expect(page.getByRole('heading', { name: 'Commit History (2)' })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  const roughRow = timeline.getByRole('link', { name: /Rough/ });
  await expect(roughRow).toContainText(first.sha.slice(0, 12));
  await expect(roughRow).toContainText('has bounce');
  const vocalsRow = timeline.getByRole('link', { name: /Vocals/ });
  await expect(vocalsRow).toContainText(second.sha.slice(0, 12));
  await expect(vocalsRow).not.toContainText('has bounce');

  const info = page.getByRole('region', { name: 'Repository info' });
  await expect(info).toContainText(repo.id);
  await expect(info).toContainText('main');
  await expect(page.getByRole('link', { name: 'Open branch main' })).toHaveAttribute(
    'href',
    `/repositories/${repo.id}/branch/main`,
  );
  await expect(page.getByRole('button', { name: 'Pull' })).toHaveAttribute(
    'title',
    'Open in desktop and pull',
  );

  // The first bounce is previewed with its waveform; playing it fills the global player.
  const preview = page.getByRole('region', { name: 'Now previewing' });
  await expect(preview.getByRole('heading', { name: 'Rough mix' })).toBeVisible();
  await expect(preview.locator('[data-testid="bounce-waveform"] canvas').first()).toBeAttached();
  await preview.getByRole('button', { name: 'Play Rough mix' }).click();
  const player = page.getByRole('region', { name: 'Audio player' });
  await expect(player.getByTestId('player-title')).toHaveText('Rough mix');
  await expect(player.getByText('Night Drive')).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Pause Rough mix' })).toBeVisible();
  await preview.getByRole('button', { name: 'Pause Rough mix' }).click();
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // Change cover with a PNG.
  await page.getByLabel('Cover image').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: tinyPng(),
  });
  await expect(page.getByTestId('repo-cover')).toHaveAttribute(
    'src',
    new RegExp(`/api/repos/${repo.id}/cover`),
  );
  await expect(page.getByText('Cover upload failed')).toHaveCount(0);

  // Publish a bounce from the browser onto the branch head (Vocals).
  await page.getByLabel('Bounce audio file').setInputFiles({
    name: 'vocal-comp.wav',
    mimeType: 'audio/wav',
    buffer: toneWav(2, 660, 8000),
  });
  const activity = page.getByRole('list', { name: 'Branch activity' });
  await expect(activity.getByRole('button', { name: 'Play vocal-comp' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(vocalsRow).toContainText('has bounce', { timeout: 30_000 });
  await expect(page.getByText('Publish failed')).toHaveCount(0);

  // The commit page lists the bounces of the commit.
  await roughRow.click();
  await expect(page).toHaveURL(`/repositories/${repo.id}/commit/${first.sha}`);
  await expect(
    page.getByRole('heading', { name: `Commit ${first.sha.slice(0, 12)}`, level: 1 }),
  ).toBeVisible();
  const card = page.getByRole('article', { name: 'Rough mix' });
  await expect(card.getByText('Commit bounces')).toBeVisible();
  await expect(card).toContainText('audio/wav');
  await expect(card).toContainText('2s');
  await card.getByRole('button', { name: 'Play Rough mix' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Rough mix');
});

test("another user's repository reads as missing", async ({ page, baseURL, browser }) => {
  await signedInAt(page, baseURL, 'repo-owner');
  const repo = await createRepo(page, baseURL, 'Private Stuff');

  // Its own client address, like the test fixture gives the main page (per-IP sign-up limits).
  const other = await browser.newPage({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.254.${Math.floor(Math.random() * 250)}.7` },
  });
  await signedInAt(other, baseURL, 'repo-visitor', `/repositories/${repo.id}`);
  await expect(other.getByRole('alert')).toBeVisible();
  await expect(other.getByText('Private Stuff')).toHaveCount(0);
  await other.close();
});
