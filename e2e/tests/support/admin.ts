import type { Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { apiAs, callExpecting } from './api';
import { signInCodeFrom, waitForMail } from './mailbox';

/**
 * The e2e server's ADMIN_EMAILS (playwright.config.ts): one address per spec that needs it, since
 * an address gets one sign-in email a minute.
 */
export const ADMINS = {
  debug: 'debug-admin@example.com',
  axe: 'axe-admin@example.com',
  people: 'people-admin@example.com',
  quota: 'quota-admin@example.com',
  policy: 'policy-admin@example.com',
  sweep: 'sweep-admin@example.com',
} as const;

/** Signs the page's context in as `email` by emailed code, which proves the address. */
export async function signInByCode(page: Page, baseURL: string | undefined, email: string) {
  const api = apiAs(page, baseURL);
  const sentAt = Date.now();
  await callExpecting(api, 200, endpoints.auth.sendMagicCode, { body: { email } });
  const code = signInCodeFrom(await waitForMail(email, { since: sentAt }));
  await callExpecting(api, 200, endpoints.auth.verifyMagicCode, { body: { email, code } });
}
