import type { Locator, Page } from '@playwright/test';
import { EMAIL_UNVERIFIED_CODE, endpoints } from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { chooseTheme, expectNoSeriousViolations } from './support/axe';
import {
  confirmEmail,
  inviteByApi,
  inviteFromDialog,
  memberRoleSelect,
  memberRow,
  receiveInvitation,
  separatePage,
  setDisplayName,
} from './support/members';
import { expect, test } from './support/test';
import { branchesOf, createProject, signedInAt, uploadVersion } from './support/workspace';

const OWNER_NAME = 'Olivia Owner';
const MEMBER_NAME = 'Bruno Bandmate';
const COLLECTION = 'EP pitch';

/** Opens the 'Collection members' dialog from the collection page's header. */
async function openCollectionMembers(page: Page): Promise<Locator> {
  await page.getByRole('main').getByRole('button', { name: 'Members', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Collection members' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The controls only an editor (reorder, Up, Down, Remove) or the owner has on the page. */
function editorControls(page: Page) {
  const main = page.getByRole('main');
  return {
    reorder: main.getByRole('button', { name: /^Reorder "/ }),
    moves: main.getByRole('button', { name: /^Move (up|down) "/ }),
    removeItems: main.getByRole('button', { name: /^Remove "/ }),
  };
}

test('a collection member: invited as Editor by email, sees only the items of projects they can read, reorders by keyboard; as Viewer only plays; removed, the collection is not found', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(180_000);

  // A: two projects with one take each.
  await signedInAt(page, baseURL, 'collection-members-owner', '/collections');
  await setDisplayName(page, baseURL, OWNER_NAME);
  const first = await createProject(page, baseURL, 'Night Drive');
  const second = await createProject(page, baseURL, 'Harbour Lights');
  const [firstMain] = await branchesOf(page, first.id);
  const [secondMain] = await branchesOf(page, second.id);
  const verse = await uploadVersion(page, baseURL, {
    projectId: first.id,
    branchId: firstMain!.id,
    message: 'Verse take',
  });
  const outro = await uploadVersion(page, baseURL, {
    projectId: second.id,
    branchId: secondMain!.id,
    message: 'Outro take',
  });

  // B has an account and joins P1 only (as a Viewer: enough to listen to it).
  const member = await separatePage(browser, baseURL, extraHTTPHeaders);
  const credentials = await seedUser(member.request, baseURL, 'collection-members-member');
  await setDisplayName(member, baseURL, MEMBER_NAME);
  const projectInvitedAt = Date.now();
  await inviteByApi(page, baseURL, first.id, credentials.email, 'viewer');
  const projectLink = await receiveInvitation(credentials.email, {
    since: projectInvitedAt,
    inviter: OWNER_NAME,
    project: first.name,
  });
  // B's account was made with a password: B confirms the address with the code that the first
  // accept emails, then accepts (the collection invitation below needs no code again).
  const projectToken = { token: new URL(projectLink).pathname.replace('/invite/', '') };
  const memberApi = apiAs(member, baseURL);
  const refusedAt = Date.now();
  const refused = await memberApi.fetch(endpoints.members.acceptInvitation, { body: projectToken });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ details: { code: EMAIL_UNVERIFIED_CODE } });
  await confirmEmail(member, credentials.email, { since: refusedAt, via: 'api', baseURL });
  await callExpecting(memberApi, 200, endpoints.members.acceptInvitation, { body: projectToken });

  // A makes the collection on /collections and puts both takes in it.
  await page.goto('/collections');
  await page.getByRole('button', { name: 'New Collection' }).click();
  await page.getByLabel('Name').fill(COLLECTION);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: COLLECTION, exact: true }),
  ).toBeVisible();
  const collectionId = new URL(page.url()).pathname.split('/').pop()!;
  const ownerApi = apiAs(page, baseURL);
  for (const versionId of [verse.versionId, outro.versionId])
    await callExpecting(ownerApi, 201, endpoints.collections.addCollectionItem, {
      params: { id: collectionId },
      body: { version_id: versionId },
    });
  await page.reload();
  const ownerList = page.getByRole('list', { name: 'Collection items' });
  await expect(ownerList.getByRole('listitem')).toHaveCount(2);

  // 'Members' on the collection: the owner alone, the invite form, and no ownership transfer.
  const dialog = await openCollectionMembers(page);
  await expect(memberRow(dialog, OWNER_NAME)).toContainText('Owner');
  await expectNoSeriousViolations(page, "'Collection members' dialog");
  const invitedAt = Date.now();
  await inviteFromDialog(dialog, credentials.email, 'Editor');
  await expect(dialog.getByRole('button', { name: /Transfer ownership/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // B follows the emailed link: it names the collection; accepting lands on it.
  const link = await receiveInvitation(credentials.email, {
    since: invitedAt,
    inviter: OWNER_NAME,
    project: COLLECTION,
  });
  await member.goto(link);
  const invitation = member.getByRole('main');
  await expect(invitation.getByRole('heading', { name: `Join ${COLLECTION}` })).toBeVisible();
  await expect(invitation.getByText('Collection', { exact: true })).toBeVisible();
  await expect(invitation.getByText('Editor', { exact: true }).first()).toBeVisible();
  await invitation.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(member).toHaveURL(`/collections/${collectionId}`);
  // The exact name: the invitation's 'Join …' heading stays up while the collection page loads.
  await expect(
    member.getByRole('heading', { level: 1, name: COLLECTION, exact: true }),
  ).toBeVisible();
  await expect(member.getByRole('main').getByText('Editor', { exact: true })).toBeVisible();

  // The P1 take plays; the P2 take is unavailable to B, with nothing of P2 shown.
  const list = member.getByRole('list', { name: 'Collection items' });
  const titles = () => list.getByRole('listitem').allInnerTexts();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('Verse take'),
      expect.stringContaining('No longer available to you'),
    ]);
  await expect(list).not.toContainText('Outro take');
  await expect(list).not.toContainText('Harbour Lights');
  const play = list.getByRole('button', { name: 'Play "Verse take"' });
  await expect(play).toBeEnabled();
  await play.click();
  const player = member.getByRole('region', { name: 'Audio player' });
  await expect(player.getByTestId('player-title')).toHaveText('Verse take');

  // An Editor reorders by keyboard, but has no Share collection, Links, Edit or Delete.
  const handle = list.getByRole('button', { name: 'Reorder "Verse take"' });
  await handle.focus();
  await member.keyboard.press('Alt+ArrowDown');
  await expect(handle).toBeFocused();
  await expect(member.getByText('Moved "Verse take" to position 2 of 2')).toBeAttached();
  await expect
    .poll(titles)
    .toEqual([
      expect.stringContaining('No longer available to you'),
      expect.stringContaining('Verse take'),
    ]);
  const memberMain = member.getByRole('main');
  await expect(memberMain.getByRole('button', { name: 'Share collection' })).toHaveCount(0);
  await expect(memberMain.getByRole('tab', { name: 'Links' })).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Change cover' })).toBeVisible();
  // The order is saved: the owner sees it too.
  await page.reload();
  await expect(ownerList.getByRole('listitem').first()).toContainText('Outro take');

  // B's collections list has it under 'Shared with you', with B's role.
  await member.goto('/collections');
  const shared = member.getByRole('region', { name: 'Shared with you' });
  await expect(shared.getByRole('link', { name: COLLECTION })).toBeVisible();
  await expect(shared.getByText('Editor', { exact: true })).toBeVisible();
  await member.goto(`/collections/${collectionId}`);
  await expect(
    member.getByRole('heading', { level: 1, name: COLLECTION, exact: true }),
  ).toBeVisible();

  // A makes B a Viewer: after a reload B only plays.
  const changing = await openCollectionMembers(page);
  await memberRoleSelect(changing, MEMBER_NAME).selectOption('viewer');
  await expect(changing.getByText(`${MEMBER_NAME} is now Viewer.`)).toBeVisible();
  await page.keyboard.press('Escape');
  await member.reload();
  await expect(
    member.getByRole('heading', { level: 1, name: COLLECTION, exact: true }),
  ).toBeVisible();
  await expect(memberMain.getByText('Viewer', { exact: true })).toBeVisible();
  await expect(list.getByRole('button', { name: 'Play "Verse take"' })).toBeEnabled();
  const controls = editorControls(member);
  await expect(controls.reorder).toHaveCount(0);
  await expect(controls.moves).toHaveCount(0);
  await expect(controls.removeItems).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Change cover' })).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Share collection' })).toHaveCount(0);
  await expect(memberMain.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  for (const theme of ['light', 'dark'] as const) {
    await chooseTheme(member, theme);
    await expectNoSeriousViolations(member, "a Viewer's collection page");
  }

  // A removes B: B's next load finds no collection.
  const removing = await openCollectionMembers(page);
  await memberRow(removing, MEMBER_NAME)
    .getByRole('button', { name: `Remove ${MEMBER_NAME}` })
    .click();
  await expect(memberRow(removing, MEMBER_NAME)).toHaveCount(0);
  await member.reload();
  await expect(member.getByText('Collection not found')).toBeVisible();
  await expect(
    member.getByRole('heading', { level: 1, name: COLLECTION, exact: true }),
  ).toHaveCount(0);

  await member.context().close();
});
