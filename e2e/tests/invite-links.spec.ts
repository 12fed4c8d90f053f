import type { Page } from '@playwright/test';
import { endpoints, INVITE_LINK_MESSAGES } from '@takes/contract';
import { seedUser } from './support/accounts';
import { apiAs, callExpecting } from './support/api';
import { confirmationCodeFrom, waitForMail } from './support/mailbox';
import {
  CONFIRMATION_SUBJECT,
  memberRoleSelect,
  memberRow,
  openMembersDialog,
  separatePage,
  setDisplayName,
} from './support/members';
import { seedOwnerTrack } from './support/sharing';
import { expect, test } from './support/test';

/**
 * Signs a new person in on their own page (an account made with a password, so its address is
 * not proven yet) and names them.
 */
async function newPerson(
  page: Page,
  baseURL: string | undefined,
  label: string,
  name: string,
): Promise<{ email: string }> {
  const credentials = await seedUser(page.request, baseURL, label);
  await callExpecting(apiAs(page, baseURL), 200, endpoints.auth.signInWithEmail, {
    body: credentials,
  });
  await setDisplayName(page, baseURL, name);
  return { email: credentials.email };
}

/** Opens the invite link, presses 'Join project', confirms the address by its code, lands in. */
async function joinThroughLink(page: Page, url: string, email: string, projectId: string) {
  await page.goto(url);
  const main = page.getByRole('main');
  await expect(main.getByText('as Editor', { exact: false })).toBeVisible();
  const pressedAt = Date.now();
  await main.getByRole('button', { name: 'Join project' }).click();
  // A password account has not proven its address: joining asks for the code mailed there.
  await expect(main.getByText(INVITE_LINK_MESSAGES.confirmEmailToJoin(email))).toBeVisible();
  const mail = await waitForMail(email, { since: pressedAt, subject: CONFIRMATION_SUBJECT });
  await main.getByRole('textbox', { name: '6-digit code' }).fill(confirmationCodeFrom(mail));
  await main.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page).toHaveURL(`/projects/${projectId}`);
}

test('an invite link with 2 uses lets two people in as Editor and refuses a third', async ({
  page,
  browser,
  baseURL,
  extraHTTPHeaders,
}) => {
  test.setTimeout(120_000);
  const owner = await seedOwnerTrack(page, baseURL, 'invite-link-owner', 5);
  await page.goto(`/projects/${owner.projectId}`);
  const dialog = await openMembersDialog(page);

  const form = dialog.getByRole('form', { name: 'Make an invite link' });
  await form.getByRole('textbox', { name: 'Link name' }).fill('Band chat');
  await form.getByRole('combobox', { name: 'Link role' }).selectOption({ label: 'Editor' });
  // Out of bounds first: the form says so before asking the server.
  await form.getByRole('textbox', { name: 'Uses' }).fill('51');
  await form.getByRole('button', { name: 'Make invite link' }).click();
  await expect(form.getByText(INVITE_LINK_MESSAGES.usesInvalid)).toBeVisible();
  await form.getByRole('textbox', { name: 'Uses' }).fill('2');
  await form.getByRole('textbox', { name: 'Expires in (days)' }).fill('7');
  await form.getByRole('button', { name: 'Make invite link' }).click();

  const listed = dialog.getByRole('list', { name: 'Invite links' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Band chat');
  await expect(listed).toContainText('Editor');
  await expect(listed).toContainText('2 of 2 uses left');
  await expect(listed.getByRole('button', { name: 'Revoke invite link Band chat' })).toHaveText(
    'Revoke',
  );
  const url = await listed.getByRole('textbox', { name: 'Invite link: Band chat' }).inputValue();
  expect(new URL(url).pathname).toMatch(/^\/join\/[A-Za-z0-9]{22}$/);

  const people = [
    { label: 'invite-link-ana', name: 'Ana' },
    { label: 'invite-link-ben', name: 'Ben' },
  ];
  for (const person of people) {
    const theirs = await separatePage(browser, baseURL, extraHTTPHeaders);
    const { email } = await newPerson(theirs, baseURL, person.label, person.name);
    await joinThroughLink(theirs, url, email, owner.projectId);
    await expect(theirs.getByRole('heading', { level: 1, name: owner.projectName })).toBeVisible();
    await theirs.context().close();
  }

  // The third person finds the link used up.
  const third = await separatePage(browser, baseURL, extraHTTPHeaders);
  await newPerson(third, baseURL, 'invite-link-cy', 'Cy');
  await third.goto(url);
  await expect(third.getByRole('main').getByText(INVITE_LINK_MESSAGES.invalid)).toBeVisible();
  await expect(third.getByRole('button', { name: 'Join project' })).toHaveCount(0);
  await third.context().close();

  // The owner sees two new Editors, no live link left, and each join in Activity by name.
  await page.reload();
  const again = await openMembersDialog(page);
  await expect(memberRow(again, 'Ana')).toBeVisible();
  await expect(memberRoleSelect(again, 'Ana')).toHaveValue('editor');
  await expect(memberRoleSelect(again, 'Ben')).toHaveValue('editor');
  await expect(again.getByText('No live invite links.')).toBeVisible();
  const activity = await callExpecting(
    apiAs(page, baseURL),
    200,
    endpoints.activity.listProjectActivity,
    { params: { projectId: owner.projectId }, query: {} },
  );
  const lines = activity.items.map((item) => item.summary);
  expect(lines).toContain("Ana joined as Editor through the invite link 'Band chat'");
  expect(lines).toContain("Ben joined as Editor through the invite link 'Band chat'");
});
