import { expect, type Page } from '@playwright/test';
import { signInCodeFrom, waitForMail } from './mailbox';

/**
 * The e2e server's ADMIN_EMAILS (playwright.config.ts): one address per spec that needs it, since
 * an address gets one sign-in email a minute.
 */
export const ADMINS = {
  debug: 'debug-admin@example.com',
  axe: 'axe-admin@example.com',
} as const;

/** Signs the page's context in as `email` by emailed code, which proves the address. */
export async function signInByCode(page: Page, baseURL: string | undefined, email: string) {
  if (!baseURL) throw new Error('baseURL must be set in playwright.config.ts');
  const headers = { origin: new URL(baseURL).origin };
  const sentAt = Date.now();
  const sent = await page.request.post('/api/auth/magic-code/send', { data: { email }, headers });
  expect(sent.status(), await sent.text()).toBe(200);
  const code = signInCodeFrom(await waitForMail(email, { since: sentAt }));
  const verified = await page.request.post('/api/auth/magic-code/verify', {
    data: { email, code },
    headers,
  });
  expect(verified.status(), await verified.text()).toBe(200);
}
