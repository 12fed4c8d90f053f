import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { mailDirectory, type StoredMail } from './mail-store';

function runMailDirectory(): string {
  const dataDir = process.env.TAKES_E2E_DATA_DIR;
  if (!dataDir) throw new Error('TAKES_E2E_DATA_DIR is not set; run through playwright.config.ts');
  return mailDirectory(dataDir);
}

/**
 * The newest stored message to `address` that arrived at or after `since` (with `subject`, when
 * given), if any.
 */
async function newestMailTo(
  address: string,
  since: number,
  subject: string | undefined,
): Promise<StoredMail | undefined> {
  const directory = runMailDirectory();
  const names = (await readdir(directory)).filter((name) => name.endsWith('.json'));
  const wanted = address.toLowerCase();
  let newest: StoredMail | undefined;
  for (const name of names) {
    const mail = JSON.parse(await readFile(join(directory, name), 'utf8')) as StoredMail;
    if (!mail.to.includes(wanted) || mail.receivedAt < since) continue;
    if (subject !== undefined && mail.subject !== subject) continue;
    if (!newest || mail.receivedAt >= newest.receivedAt) newest = mail;
  }
  return newest;
}

/**
 * Waits for a message to `address` (the newest one, arrived at or after `since`; only one with
 * `subject` when given, so another email to the same person cannot stand in for it), polling the
 * loopback SMTP server's folder with Playwright's auto-waiting `expect.poll`.
 */
export async function waitForMail(
  address: string,
  {
    since = 0,
    timeout = 15_000,
    subject,
  }: { since?: number; timeout?: number; subject?: string } = {},
): Promise<StoredMail> {
  let found: StoredMail | undefined;
  await expect
    .poll(
      async () => {
        found = await newestMailTo(address, since, subject);
        return found !== undefined;
      },
      { message: `an email to ${address}${subject ? ` with subject '${subject}'` : ''}`, timeout },
    )
    .toBe(true);
  if (!found) throw new Error(`No email to ${address}`);
  return found;
}

/** The 6-digit code from a sign-in email (`Your sign-in code: 123456`). */
export function signInCodeFrom(mail: StoredMail): string {
  const match = /Your sign-in code:\s*(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No sign-in code in the email:\n${mail.text}`);
  return match[1];
}

/**
 * The 6-digit code from the email that asks a signed-in person to confirm their address
 * (`Your confirmation code: 123456`).
 */
export function confirmationCodeFrom(mail: StoredMail): string {
  const match = /Your confirmation code:\s*(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No confirmation code in the email:\n${mail.text}`);
  return match[1];
}

/** The sign-in link from a sign-in email: the page that asks 'Sign in as …?'. */
export function signInLinkFrom(mail: StoredMail): string {
  const match = /(https?:\/\/[^\s<>"']+\/magic-link#token=[^\s<>"')\]]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No sign-in link in the email:\n${mail.text}`);
  return match[1];
}

/** The invitation link from an invitation email: `{PUBLIC_URL}/invite/{token}`. */
export function invitationLinkFrom(mail: StoredMail): string {
  const match = /(https?:\/\/[^\s<>"']+\/invite\/[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No invitation link in the email:\n${mail.text}`);
  return match[1];
}
