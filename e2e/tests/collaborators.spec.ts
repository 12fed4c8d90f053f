/// <reference lib="dom" />
// Some page-side callbacks below read the <audio> element, so this file needs the DOM types.
import type { Locator, Page } from '@playwright/test';
import { EMAIL_UNVERIFIED_CODE, endpoints, MEMBER_MESSAGES } from '@takes/contract';
import { newCredentials, type Credentials } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { chooseTheme, expectNoSeriousViolations } from './support/axe';
import {
  confirmEmail,
  inviteByApi,
  inviteFromDialog,
  memberRoleSelect,
  memberRow,
  openMembersDialog,
  pendingInvitation,
  receiveInvitation,
  separatePage,
  setDisplayName,
  signUpWithPassword,
  type RoleWord,
} from './support/members';
import { audioTime, createShareLink, seedOwnerTrack, type OwnedTrack } from './support/sharing';
import { expect, test } from './support/test';
import { toneWav } from './support/wav';

const OWNER_NAME = 'Olivia Owner';

/** The source the global player's media element is playing. */
function audioSource(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('audio')?.currentSrc ?? '');
}

function versionPath(track: OwnedTrack, versionId: string): string {
  return `/projects/${track.projectId}/branches/${track.branchId}/versions/${versionId}`;
}

/** The project page's header, where the caller's role badge and the header buttons are. */
function projectHeader(page: Page): Locator {
  return page.getByRole('main').locator('header').first();
}

/**
 * Opens an emailed invitation link signed out, checks what it offers (project, inviter, role),
 * signs up there with the invited address, comes back to the invitation, accepts it, confirms the
 * address with the emailed code and lands on the project page with the role badge.
 */
async function joinFromLink(
  person: Page,
  link: string,
  invited: { credentials: Credentials; name: string; role: RoleWord },
  track: OwnedTrack,
  baseURL: string | undefined,
) {
  const invitationPath = new URL(link).pathname;
  await person.goto(link);
  const main = person.getByRole('main');
  await expect(main.getByText(track.projectName).first()).toBeVisible();
  await expect(main.getByText(OWNER_NAME).first()).toBeVisible();
  await expect(main.getByText(invited.role, { exact: true }).first()).toBeVisible();

  // Signed out, the invitation offers sign-in and sign-up, and comes back here afterwards.
  await expect(main.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
  await main.getByRole('link', { name: /^Sign up/i }).click();
  await expect(person).toHaveURL(/\/login/);
  await signUpWithPassword(person, invited.credentials);
  await expect(person).toHaveURL(invitationPath);
  await setDisplayName(person, baseURL, invited.name);

  // The account was made with a password, so its address is unproven: accepting first asks
  // for the 6-digit code it emails there, and 'Confirm' accepts.
  const acceptedAt = Date.now();
  await main.getByRole('button', { name: 'Accept invitation' }).click();
  await confirmEmail(person, invited.credentials.email, {
    since: acceptedAt,
    via: 'invite-page',
  });
  await expect(person).toHaveURL(`/projects/${track.projectId}`);
  await expect(person.getByRole('heading', { level: 1, name: track.projectName })).toBeVisible();
  await expect(projectHeader(person).getByText(invited.role, { exact: true })).toBeVisible();
  await expect(projectHeader(person).getByText('Owner', { exact: true })).toHaveCount(0);
}

/**
 * Set-up that is not about joining: a password account accepts an emailed invitation through the
 * API. The first accept is refused until the address is confirmed (and emails the code); the
 * code confirms it, and the second accept lets the account in.
 */
async function joinByApi(person: Page, baseURL: string | undefined, email: string, link: string) {
  const api = apiAs(person, baseURL);
  const body = { token: new URL(link).pathname.replace('/invite/', '') };
  const refusedAt = Date.now();
  const refused = await api.fetch(endpoints.members.acceptInvitation, { body });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({
    error: MEMBER_MESSAGES.confirmEmailToAccept(email),
    code: EMAIL_UNVERIFIED_CODE,
    details: { code: EMAIL_UNVERIFIED_CODE, email },
  });
  await confirmEmail(person, email, { since: refusedAt, via: 'api', baseURL });
  await callExpecting(api, 200, endpoints.members.acceptInvitation, { body });
}

test.describe('collaborators', () => {
  test('the owner invites a Commenter and an Editor; they join by the emailed links, upload, comment, and lose access when removed; a Viewer cannot comment', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(240_000);
    const commenter = { credentials: newCredentials('team-commenter'), name: 'Carla Commenter' };
    const editor = { credentials: newCredentials('team-editor'), name: 'Eddie Editor' };
    const viewer = { credentials: newCredentials('team-viewer'), name: 'Vera Viewer' };

    // The owner: an account with a project whose version 1 is uploaded.
    const track = await seedOwnerTrack(page, baseURL, 'team-owner', 3);
    await setDisplayName(page, baseURL, OWNER_NAME);
    await page.goto(`/projects/${track.projectId}`);
    await expect(page.getByRole('heading', { level: 1, name: track.projectName })).toBeVisible();
    await expect(projectHeader(page).getByText('Owner', { exact: true })).toBeVisible();

    const ownerDialog = await openMembersDialog(page);
    await expect(memberRow(ownerDialog, OWNER_NAME)).toContainText('Owner');
    // The role select offers exactly the three roles an invitation can give, Commenter first chosen.
    const roleSelect = ownerDialog.getByRole('combobox', { name: 'Role', exact: true });
    await expect(roleSelect.locator('option')).toHaveText(['Viewer', 'Commenter', 'Editor']);
    await expect(roleSelect.locator('option:checked')).toHaveText('Commenter');

    const invitedAt = Date.now();
    await inviteFromDialog(ownerDialog, commenter.credentials.email, 'Commenter');
    await inviteFromDialog(ownerDialog, editor.credentials.email, 'Editor');
    for (const email of [commenter.credentials.email, editor.credentials.email]) {
      const pending = pendingInvitation(ownerDialog, email);
      await expect(pending.getByRole('button', { name: 'Resend' })).toBeVisible();
      await expect(pending.getByRole('button', { name: 'Revoke' })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(ownerDialog).toHaveCount(0);

    // Each invited person reads their email, follows the link, signs up and accepts.
    const commenterPage = await separatePage(browser, baseURL, extraHTTPHeaders);
    const editorPage = await separatePage(browser, baseURL, extraHTTPHeaders);
    const invitation = { since: invitedAt, inviter: OWNER_NAME, project: track.projectName };
    await joinFromLink(
      commenterPage,
      await receiveInvitation(commenter.credentials.email, invitation),
      { ...commenter, role: 'Commenter' },
      track,
      baseURL,
    );
    await joinFromLink(
      editorPage,
      await receiveInvitation(editor.credentials.email, invitation),
      { ...editor, role: 'Editor' },
      track,
      baseURL,
    );
    // A Commenter has no upload button; an Editor has.
    await expect(
      commenterPage.getByRole('main').getByRole('button', { name: 'Upload Version' }),
    ).toHaveCount(0);
    await expect(
      editorPage.getByRole('main').getByRole('button', { name: 'Upload Version' }),
    ).toBeVisible();

    // The Editor uploads version 2 on the upload page.
    await editorPage.goto('/upload');
    await editorPage.getByRole('tab', { name: 'New Version' }).click();
    await editorPage.getByLabel('Audio file').setInputFiles({
      name: 'second-take.wav',
      mimeType: 'audio/wav',
      buffer: toneWav(8, 660),
    });
    await editorPage
      .getByRole('combobox', { name: 'Select Project' })
      .selectOption(track.projectId);
    await editorPage.getByRole('combobox', { name: 'Select Branch' }).selectOption(track.branchId);
    await editorPage.getByRole('textbox', { name: 'Version Message' }).fill('Bass re-amped');
    await editorPage.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(editorPage).toHaveURL(`/projects/${track.projectId}`, { timeout: 60_000 });

    const editorApi = apiAs(editorPage, baseURL);
    const versions = await callExpecting(editorApi, 200, endpoints.versions.listBranchVersions, {
      params: { projectId: track.projectId, branchId: track.branchId },
    });
    const second = versions.find((version) => version.version_number === 2);
    if (!second) throw new Error(`no version 2 in ${JSON.stringify(versions)}`);
    expect(second.message).toBe('Bass re-amped');
    await expect
      .poll(
        async () =>
          (
            await editorApi.call(endpoints.versions.getVersionProcessing, {
              params: { versionId: second.id },
            })
          ).status,
        { timeout: 60_000, intervals: [500] },
      )
      .toBe('completed');

    // The Commenter opens version 2 (it starts playing), and comments at the current time.
    await commenterPage.goto(versionPath(track, second.id));
    await expect(commenterPage.getByRole('heading', { level: 1, name: 'Version 2' })).toBeVisible();
    await expect(commenterPage.getByRole('main').getByText('Bass re-amped')).toBeVisible();
    await expect.poll(() => audioSource(commenterPage)).toContain(second.id);
    await expect.poll(() => audioTime(commenterPage), { timeout: 15_000 }).toBeGreaterThan(1.5);
    // Not an Editor: no Delete and no Share for the version.
    const commenterMain = commenterPage.getByRole('main');
    await expect(commenterMain.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    await expect(commenterMain.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);

    const form = commenterPage.getByRole('form', { name: 'Comment' });
    await form.getByRole('button', { name: 'Attach current time' }).click();
    const attached = form.getByRole('button', { name: /^Remove time \d+:\d\d$/ });
    await expect(attached).toBeVisible();
    const stampLabel = ((await attached.getAttribute('aria-label')) ?? '').replace(
      'Remove time ',
      '',
    );
    await form.getByRole('textbox', { name: 'Comment' }).fill('The bass sits better now');
    await form.getByRole('button', { name: 'Post Comment' }).click();
    const posted = commenterPage.getByRole('article', { name: `Comment by ${commenter.name}` });
    await expect(posted.getByText('The bass sits better now')).toBeVisible();
    await expect(posted.getByRole('button', { name: `Play from ${stampLabel}` })).toBeVisible();

    // The owner sees both names: in the member list and on the comment.
    await page.reload();
    const members = await openMembersDialog(page);
    await expect(memberRoleSelect(members, commenter.name)).toHaveValue('commenter');
    await expect(memberRoleSelect(members, editor.name)).toHaveValue('editor');
    await expect(memberRoleSelect(members, commenter.name).locator('option:checked')).toHaveText(
      'Commenter',
    );
    await expect(memberRoleSelect(members, editor.name).locator('option:checked')).toHaveText(
      'Editor',
    );
    // Accepted invitations are no longer pending.
    await expect(pendingInvitation(members, commenter.credentials.email)).toHaveCount(0);
    await expect(pendingInvitation(members, editor.credentials.email)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto(versionPath(track, second.id));
    const seenByOwner = page.getByRole('article', { name: `Comment by ${commenter.name}` });
    await expect(seenByOwner.getByText('The bass sits better now')).toBeVisible();
    await expect(
      seenByOwner.getByRole('button', { name: `Play from ${stampLabel}` }),
    ).toBeVisible();

    // The Commenter is on the project page when the owner removes them.
    await commenterPage.goto(`/projects/${track.projectId}`);
    await expect(
      commenterPage.getByRole('heading', { level: 1, name: track.projectName }),
    ).toBeVisible();
    await page.goto(`/projects/${track.projectId}`);
    const removing = await openMembersDialog(page);
    await memberRow(removing, commenter.name)
      .getByRole('button', { name: `Remove ${commenter.name}` })
      .click();
    await expect(memberRow(removing, commenter.name)).toHaveCount(0);
    await expect(memberRow(removing, editor.name)).toBeVisible();

    await commenterPage.reload();
    await expect(commenterPage.getByRole('heading', { name: 'Project not found' })).toBeVisible();
    await expect(
      commenterPage.getByRole('heading', { level: 1, name: track.projectName }),
    ).toHaveCount(0);

    // A Viewer joins the same way and sees the version and its comments, but no comment form.
    const viewerInvitedAt = Date.now();
    await inviteFromDialog(removing, viewer.credentials.email, 'Viewer');
    await page.keyboard.press('Escape');
    const viewerPage = await separatePage(browser, baseURL, extraHTTPHeaders);
    await joinFromLink(
      viewerPage,
      await receiveInvitation(viewer.credentials.email, { ...invitation, since: viewerInvitedAt }),
      { ...viewer, role: 'Viewer' },
      track,
      baseURL,
    );
    await viewerPage.goto(versionPath(track, second.id));
    await expect(viewerPage.getByRole('heading', { level: 1, name: 'Version 2' })).toBeVisible();
    await expect(viewerPage.getByRole('heading', { name: 'Comments' })).toBeVisible();
    await expect(
      viewerPage.getByRole('article', { name: `Comment by ${commenter.name}` }),
    ).toBeVisible();
    await expect(viewerPage.getByRole('form', { name: 'Comment' })).toHaveCount(0);
    await expect(viewerPage.getByRole('textbox', { name: 'Comment' })).toHaveCount(0);
    await expect(viewerPage.getByRole('button', { name: 'Post Comment' })).toHaveCount(0);

    for (const person of [commenterPage, editorPage, viewerPage]) await person.context().close();
  });

  test('a Public project opens signed out and plays; after Make private the same address asks for sign-in', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(120_000);
    const track = await seedOwnerTrack(page, baseURL, 'public-owner', 10);
    await page.goto(`/projects/${track.projectId}`);
    const header = projectHeader(page);
    await expect(header.getByText('Private', { exact: true })).toBeVisible();

    await header.getByRole('button', { name: 'Make public' }).click();
    const confirm = page.getByRole('dialog', { name: 'Make this project public?' });
    await expect(confirm).toBeVisible();
    // The confirmation says what Public means.
    await expect(confirm).toContainText(/without signing in/i);
    await expect(confirm).toContainText(/standard quality/i);
    await expect(confirm).toContainText(/download/i);
    await expect(confirm).toContainText(/comment/i);
    const listed = confirm.getByRole('checkbox', { name: 'List in search engines' });
    await expect(listed).not.toBeChecked();
    await confirm.getByRole('button', { name: 'Make public' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(header.getByText('Public', { exact: true })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Make private' })).toBeVisible();

    // A signed-out visitor opens the project's address: the read-only page, not a sign-in.
    const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
    const address = `/projects/${track.projectId}`;
    await visitor.goto(address);
    await expect(visitor.getByRole('heading', { level: 1, name: track.projectName })).toBeVisible();
    await expect(visitor).toHaveURL(address);
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    const main = visitor.getByRole('main');
    await expect(main.getByRole('link', { name: /download/i })).toHaveCount(0);
    await expect(main.getByRole('button', { name: /share/i })).toHaveCount(0);
    await expect(main.getByRole('textbox', { name: 'Comment' })).toHaveCount(0);
    await expect(main.getByRole('button', { name: 'Members', exact: true })).toHaveCount(0);

    await main.getByRole('button', { name: 'Play version 1' }).click();
    await expect
      .poll(() => audioSource(visitor))
      .toContain(`/api/public/versions/${track.versionId}/audio`);
    await expect.poll(() => audioTime(visitor), { timeout: 15_000 }).toBeGreaterThan(1);

    // Private again: the same address asks for sign-in, and the audio is gone.
    await header.getByRole('button', { name: 'Make private' }).click();
    await expect(header.getByText('Private', { exact: true })).toBeVisible();
    await visitor.goto(address);
    await expect(visitor).toHaveURL('/login');
    await expect(
      visitor.getByRole('heading', { level: 1, name: 'Sign in to your account' }),
    ).toBeVisible();
    const audio = await visitor.request.get(`/api/public/versions/${track.versionId}/audio`);
    expect(audio.status()).toBe(404);
    await visitor.context().close();
  });

  test('the members dialog and the invitation page (with its code step) have no serious axe violations; a used link and another account are refused', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(150_000);
    const track = await seedOwnerTrack(page, baseURL, 'invite-axe', 2);
    await setDisplayName(page, baseURL, OWNER_NAME);
    const member = newCredentials('invite-axe-member');
    const pending = newCredentials('invite-axe-pending');
    const since = Date.now();
    await inviteByApi(page, baseURL, track.projectId, member.email, 'editor');
    await inviteByApi(page, baseURL, track.projectId, pending.email, 'viewer');
    const invitation = { since, inviter: OWNER_NAME, project: track.projectName };
    const memberLink = await receiveInvitation(member.email, invitation);
    const pendingLink = await receiveInvitation(pending.email, invitation);

    // The member joins through the API, so the dialog has a member row and a pending invitation.
    const memberPage = await separatePage(browser, baseURL, extraHTTPHeaders);
    const memberApi = apiAs(memberPage, baseURL);
    await callExpecting(memberApi, 200, endpoints.auth.signUpWithEmail, { body: member });
    await setDisplayName(memberPage, baseURL, 'Milo Member');
    await joinByApi(memberPage, baseURL, member.email, memberLink);

    // The signed-out invitation page.
    const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(pendingLink);
    await expect(visitor.getByRole('main').getByText(track.projectName).first()).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await chooseTheme(visitor, theme);
      await expectNoSeriousViolations(visitor, 'invitation page (signed out)');
    }

    // The owner's dialog with its member list, pending invitation and invite form.
    await page.goto(`/projects/${track.projectId}`);
    for (const theme of ['light', 'dark'] as const) {
      await chooseTheme(page, theme);
      const dialog = await openMembersDialog(page);
      await expect(memberRoleSelect(dialog, 'Milo Member')).toHaveValue('editor');
      await expect(pendingInvitation(dialog, pending.email)).toBeVisible();
      await expectNoSeriousViolations(page, "'Project members' dialog");
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }

    // Signed in as someone else, the pending invitation names the address it was sent to.
    await memberPage.goto(pendingLink);
    await memberPage.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(memberPage.getByText(MEMBER_MESSAGES.wrongAccount(pending.email))).toBeVisible();
    await expectNoSeriousViolations(memberPage, 'invitation page (another account)');

    // A used link is no longer valid.
    await memberPage.goto(memberLink);
    await expect(memberPage.getByText(MEMBER_MESSAGES.invitationInvalid)).toBeVisible();
    await expect(memberPage.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
    await expectNoSeriousViolations(memberPage, 'invitation page (no longer valid)');

    // The invited address signs up with a password where the link was opened: accepting asks for
    // the emailed code first (its step has no serious violations either), then lets them in.
    await callExpecting(apiAs(visitor, baseURL), 200, endpoints.auth.signUpWithEmail, {
      body: pending,
    });
    await visitor.reload();
    const acceptedAt = Date.now();
    await visitor.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(visitor.getByRole('textbox', { name: '6-digit code' })).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await chooseTheme(visitor, theme);
      await expectNoSeriousViolations(visitor, 'invitation page (confirm the address)');
    }
    await confirmEmail(visitor, pending.email, { since: acceptedAt, via: 'invite-page' });
    await expect(visitor).toHaveURL(`/projects/${track.projectId}`);
    await expect(projectHeader(visitor).getByText('Viewer', { exact: true })).toBeVisible();

    await memberPage.context().close();
    await visitor.context().close();
  });

  test("removing an Editor who made a share link asks first: 'Also revoke the links they made' is ticked, and the link stops opening", async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    test.setTimeout(120_000);
    const editorName = 'Eddie Editor';
    const track = await seedOwnerTrack(page, baseURL, 'remove-links-owner', 2);
    await setDisplayName(page, baseURL, OWNER_NAME);
    const editor = newCredentials('remove-links-editor');
    const since = Date.now();
    await inviteByApi(page, baseURL, track.projectId, editor.email, 'editor');
    const link = await receiveInvitation(editor.email, {
      since,
      inviter: OWNER_NAME,
      project: track.projectName,
    });
    const editorPage = await separatePage(browser, baseURL, extraHTTPHeaders);
    await callExpecting(apiAs(editorPage, baseURL), 200, endpoints.auth.signUpWithEmail, {
      body: editor,
    });
    await setDisplayName(editorPage, baseURL, editorName);
    await joinByApi(editorPage, baseURL, editor.email, link);

    // The Editor shares the take; a visitor hears it through the link.
    const shared = await createShareLink(editorPage.request, baseURL, track.versionId, {
      name: 'For the label',
      download_enabled: false,
    });
    const visitor = await separatePage(browser, baseURL, extraHTTPHeaders);
    await visitor.goto(shared.url);
    await expect(visitor.getByRole('heading', { level: 1, name: track.projectName })).toBeVisible();

    // Remove asks first, says how many links they made, and offers to revoke them (on).
    await page.goto(`/projects/${track.projectId}`);
    const members = await openMembersDialog(page);
    await memberRow(members, editorName)
      .getByRole('button', { name: `Remove ${editorName}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Remove member' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(`Remove ${editorName} from ${track.projectName}?`);
    await expect(confirm).toContainText('They made 1 share link that still opens.');
    const revoke = confirm.getByRole('checkbox', { name: 'Also revoke the links they made' });
    await expect(revoke).toBeChecked();
    await expectNoSeriousViolations(page, "'Remove member' dialog");
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(memberRow(members, editorName)).toHaveCount(0);
    await expect(members.getByText(`${editorName} was removed.`)).toBeVisible();

    // The link they made went with them.
    await visitor.reload();
    await expect(visitor.getByRole('alert')).toHaveText('Link not found');
    expect((await visitor.request.get(`/api/links/hash/${shared.hash}/audio`)).status()).toBe(404);

    await editorPage.context().close();
    await visitor.context().close();
  });
});
