import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { endpoints, invitationSubject, MEMBER_MESSAGES, type MemberRole } from '@takes/contract';
import type { Credentials } from './accounts';
import { apiAs, callExpecting } from './api';
import { confirmationCodeFrom, invitationLinkFrom, waitForMail } from './mailbox';

/** Collaborators: the people a test invites, the 'Project members' dialog and the emailed link. */

/** The words the UI uses for each role an invitation can give. */
export const ROLE_WORDS = { viewer: 'Viewer', commenter: 'Commenter', editor: 'Editor' } as const;
export type RoleWord = (typeof ROLE_WORDS)[MemberRole];

/**
 * A page in a browser context of its own (no cookies shared with the test's `page`): another
 * person at another computer. It presents the test's client address, like the test's own page.
 */
export async function separatePage(
  browser: Browser,
  baseURL: string | undefined,
  extraHTTPHeaders: Record<string, string> | undefined,
): Promise<Page> {
  const context = await browser.newContext({
    ...(baseURL ? { baseURL } : {}),
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  return context.newPage();
}

/** Sets the signed-in person's display name (what members and comments show). */
export async function setDisplayName(page: Page, baseURL: string | undefined, name: string) {
  const profile = await callExpecting(apiAs(page, baseURL), 200, endpoints.profiles.updateProfile, {
    body: { display_name: name },
  });
  expect(profile.display_name).toBe(name);
}

/** Opens the 'Project members' dialog from the project page header. */
export async function openMembersDialog(page: Page): Promise<Locator> {
  await page.getByRole('main').getByRole('button', { name: 'Members', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Project members' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Invites `email` with the dialog's invite form and waits for it under pending invitations. */
export async function inviteFromDialog(dialog: Locator, email: string, role: RoleWord) {
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
  const pending = pendingInvitation(dialog, email);
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(role);
  await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue('');
}

/** A pending invitation's row in the dialog (it shows the address, the role, Resend and Revoke). */
export function pendingInvitation(dialog: Locator, email: string): Locator {
  return dialog
    .getByRole('list', { name: 'Pending invitations' })
    .getByRole('listitem')
    .filter({ hasText: email });
}

/** A member's row in the dialog (avatar, name or email, and the role: a select for the owner). */
export function memberRow(dialog: Locator, name: string): Locator {
  return dialog
    .getByRole('list', { name: 'Members', exact: true })
    .getByRole('listitem')
    .filter({ hasText: name });
}

/** The owner's select for a member's role, in that member's row. */
export function memberRoleSelect(dialog: Locator, name: string): Locator {
  return memberRow(dialog, name).getByRole('combobox', { name: `Role of ${name}` });
}

/** Invites through the API (set-up that is not what a test is about). */
export async function inviteByApi(
  page: Page,
  baseURL: string | undefined,
  projectId: string,
  email: string,
  role: MemberRole,
) {
  return callExpecting(apiAs(page, baseURL), 201, endpoints.members.inviteToProject, {
    params: { projectId },
    body: { email, role },
  });
}

/**
 * Waits for the invitation email to `email` sent at or after `since`, checks its subject and
 * returns the `/invite/{token}` link it carries.
 */
export async function receiveInvitation(
  email: string,
  { since, inviter, project }: { since: number; inviter: string; project: string },
): Promise<string> {
  const mail = await waitForMail(email, { since });
  expect(mail.subject).toBe(invitationSubject(inviter, project));
  const link = invitationLinkFrom(mail);
  expect(new URL(link).pathname).toMatch(/^\/invite\/[A-Za-z0-9_-]{22,}$/);
  return link;
}

/** The subject of the email with the code that confirms a signed-in person's address. */
export const CONFIRMATION_SUBJECT = 'Confirm your email address for Takes';

/**
 * Confirms the address of `email`'s account (made with a password, so never proven) with the
 * 6-digit code that accepting an invitation mailed it at or after `since`: accepting asks for
 * that before it lets the account in.
 * - `via: 'invite-page'`, on the invitation page after 'Accept invitation' was refused: checks
 *   the code step says why and where the code went, types the code into '6-digit code' and
 *   presses 'Confirm' (which accepts the invitation again), as the invited person would.
 * - `via: 'api'`, set-up that is not about joining: `POST /api/auth/verify-email` as the person
 *   signed in on `page`; accepting again is the caller's.
 */
export async function confirmEmail(
  page: Page,
  email: string,
  options: { since: number } & (
    { via: 'invite-page' } | { via: 'api'; baseURL: string | undefined }
  ),
) {
  const readCode = async () =>
    confirmationCodeFrom(
      await waitForMail(email, { since: options.since, subject: CONFIRMATION_SUBJECT }),
    );
  if (options.via === 'api') {
    const code = await readCode();
    await callExpecting(apiAs(page, options.baseURL), 200, endpoints.auth.verifyEmail, {
      body: { code },
    });
    return;
  }
  const main = page.getByRole('main');
  await expect(main.getByText(MEMBER_MESSAGES.confirmEmailToAccept(email))).toBeVisible();
  await expect(main.getByText(`Enter the 6-digit code we sent to ${email}.`)).toBeVisible();
  await expect(main.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
  await expect(main.getByRole('button', { name: 'Send a new code' })).toBeVisible();
  await main.getByRole('textbox', { name: '6-digit code' }).fill(await readCode());
  await main.getByRole('button', { name: 'Confirm', exact: true }).click();
}

/**
 * On /login opened by an invitation's 'Sign up': the Email tab is already on its sign-up form;
 * fills it and submits.
 */
export async function signUpWithPassword(page: Page, { email, password }: Credentials) {
  await expect(page.getByRole('tab', { name: 'Email' })).toHaveAttribute('aria-selected', 'true');
  await expect(
    page.getByRole('button', { name: 'Already have an account? Sign In' }),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
}
