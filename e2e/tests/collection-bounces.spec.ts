import type { Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { apiAs, callExpecting } from './support/api';
import { expectNoSeriousViolations } from './support/axe';
import { separatePage } from './support/members';
import { recordRequests } from './support/own-origin';
import { createCommit, createRepo, publishBounce } from './support/repos';
import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

/**
 * What both tests start from: signed in at /collections, a take on the project 'Night Drive', and
 * a bounce 'Chorus bounce' published to the repository 'Harbour Lights', as the desktop app does.
 */
async function seedTakeAndBounce(
  page: Page,
  baseURL: string | undefined,
  seed: { label: string; take: { message: string; seconds?: number }; bounceSeconds: number },
) {
  await signedInAt(page, baseURL, seed.label, '/collections');
  const project = await createProject(page, baseURL, 'Night Drive');
  const [main] = await branchesOf(page, project.id);
  const take = await uploadVersion(page, baseURL, {
    projectId: project.id,
    branchId: main!.id,
    ...seed.take,
  });
  const repo = await createRepo(page, baseURL, 'Harbour Lights');
  await createCommit(page, baseURL, repo.id, { branch: 'main', message: 'First pass' });
  const bounce = await publishBounce(page, baseURL, {
    repoId: repo.id,
    branch: 'main',
    title: 'Chorus bounce',
    seconds: seed.bounceSeconds,
  });
  return { take, repo, bounce };
}

test("a published bounce added to a collection from the Bounces page: shown with its repository, played after the version before it, and refused a second time with the server's message", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // A 1-second take of a project, and a 4-second bounce published to a repository.
  const {
    take: intro,
    repo,
    bounce,
  } = await seedTakeAndBounce(page, baseURL, {
    label: 'collection-bounces',
    take: { message: 'Intro take' },
    bounceSeconds: 4,
  });

  // A collection holding the take.
  const api = apiAs(page, baseURL);
  const collection = await callExpecting(api, 201, endpoints.collections.createCollection, {
    body: { name: 'Demo reel' },
  });
  await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
    params: { id: collection.id },
    body: { version_id: intro.versionId },
  });

  // 'Add to collection' on its card on the Bounces page.
  await page.goto('/bounces');
  const card = page.getByRole('article', { name: 'Chorus bounce' });
  await expect(card).toContainText('Harbour Lights');
  await card.getByRole('button', { name: 'Add to collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to collection' });
  await expect(dialog.getByText('This bounce: Chorus bounce')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add to Demo reel' }).click();
  await expect(dialog.getByText('Added to Demo reel')).toBeVisible();
  // Once is enough: the second time says why not.
  await dialog.getByRole('button', { name: 'Add to Demo reel' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('This bounce is already in the collection.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // The collection shows the bounce after the take: its title, repository · branch, a link to
  // its repository.
  await page.goto(`/collections/${collection.id}`);
  const list = page.getByRole('list', { name: 'Collection items' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const item = list.getByRole('listitem').nth(1);
  await expect(item).toContainText('Chorus bounce');
  await expect(item).toContainText('Harbour Lights · main');
  await expect(item).toContainText('0:04');
  await expect(item.getByRole('link', { name: 'Harbour Lights' })).toHaveAttribute(
    'href',
    `/repositories/${repo.id}`,
  );
  await expect(page.getByText(/2 items · Total/)).toBeVisible();
  await expectNoSeriousViolations(page, 'a collection page with a bounce');

  // 'Play all': the take, then at its end the bounce by itself, playing in the global player.
  const player = page.getByRole('region', { name: 'Audio player' });
  await page.getByRole('button', { name: 'Play all' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Intro take');
  await expect(player.getByTestId('player-title')).toHaveText('Chorus bounce', { timeout: 15_000 });
  await expect(player).toContainText('Harbour Lights');
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(player.getByTestId('player-current-time')).not.toHaveText(/^(0:00|--:--)$/, {
    timeout: 10_000,
  });
  await expect(item.getByRole('button', { name: 'Pause "Chorus bounce"' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.querySelector('audio')?.currentSrc ?? ''))
    .toContain(`/api/repos/${repo.id}/bounces/${bounce.id}/stream`);

  // Its own Play from a fresh page starts the list there.
  await page.reload();
  await list.getByRole('button', { name: 'Play "Chorus bounce"' }).click();
  await expect(player.getByTestId('player-title')).toHaveText('Chorus bounce');
  await expect(player.getByRole('button', { name: 'Previous track' })).toBeVisible();
});

test('a collection link with a bounce: the visitor plays and downloads the bounce, with no comments offered on it, and still comments on the version', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);
  const { take: verse, bounce } = await seedTakeAndBounce(page, baseURL, {
    label: 'collection-bounce-link',
    take: { message: 'Verse take', seconds: 2 },
    bounceSeconds: 3,
  });

  const api = apiAs(page, baseURL);
  const collection = await callExpecting(api, 201, endpoints.collections.createCollection, {
    body: { name: 'Label pitch' },
  });
  const bounceItem = await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
    params: { id: collection.id },
    body: { bounce_id: bounce.id },
  });
  await callExpecting(api, 201, endpoints.collections.addCollectionItem, {
    params: { id: collection.id },
    body: { version_id: verse.versionId },
  });
  const { links } = await callExpecting(api, 201, endpoints.collectionLinks.createCollectionLinks, {
    params: { id: collection.id },
    body: { name: 'Label pitch', download_enabled: true },
  });
  const sharePath = new URL(links[0]!.url, baseURL).pathname;

  const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
  const requests = recordRequests(visitor, baseURL);
  const bounceComments: string[] = [];
  visitor.on('request', (request) => {
    if (request.url().includes(`/items/${bounceItem.id}/comments`))
      bounceComments.push(request.url());
  });
  await visitor.goto(sharePath);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Label pitch' })).toBeVisible();
  const rows = visitor.getByRole('list', { name: 'Items' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  const bounceRow = rows.nth(0);
  await expect(bounceRow).toContainText('Chorus bounce');
  await expect(bounceRow).toContainText('Harbour Lights');
  await expect(bounceRow.getByRole('button', { name: /Comments/ })).toHaveCount(0);
  await expect(bounceRow.getByRole('link', { name: 'Download “Chorus bounce”' })).toHaveAttribute(
    'href',
    /\/items\/[^/]+\/download$/,
  );
  // Nothing plays yet: the comments shown are the version's.
  await expect(visitor.getByRole('heading', { name: 'Comments on “Verse take”' })).toBeVisible();

  // The bounce plays; while it does, no comment list or form is offered.
  await bounceRow.getByRole('button', { name: 'Play “Chorus bounce”' }).click();
  const nowPlaying = visitor.getByRole('region', { name: 'Now playing' });
  await expect(nowPlaying).toContainText('Now playing: Chorus bounce');
  await expect(nowPlaying).not.toContainText('0:00 /', { timeout: 10_000 });
  await expect(visitor.getByText('A bounce takes no comments.')).toBeVisible();
  await expect(visitor.getByRole('heading', { name: /Comments on/ })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Post Comment' })).toHaveCount(0);
  await expectNoSeriousViolations(visitor, 'collection share page playing a bounce');

  // The version still takes comments.
  await visitor.getByRole('button', { name: 'Comments on “Verse take”' }).click();
  await expect(visitor.getByRole('heading', { name: 'Comments on “Verse take”' })).toBeVisible();
  await visitor.getByRole('textbox', { name: 'Your name' }).fill('Vera');
  await visitor.getByRole('button', { name: 'Set Name' }).click();
  await visitor.getByRole('textbox', { name: /comment/i }).fill('The verse works');
  await visitor.getByRole('button', { name: 'Post Comment' }).click();
  await expect(visitor.getByText('The verse works')).toBeVisible();

  // The page never asked for the bounce's comments, and stayed on this site.
  expect(bounceComments).toEqual([]);
  expect(requests.toOtherOrigins()).toEqual([]);
});
