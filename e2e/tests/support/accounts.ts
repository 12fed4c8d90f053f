import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { endpoints } from '@takes/contract';
import { apiWith, callExpecting } from './api';

export interface Credentials {
  email: string;
  password: string;
}

/** A fresh address per test, so no test depends on another's account. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

export function newCredentials(label: string): Credentials {
  return { email: uniqueEmail(label), password: `Tk-${randomUUID()}` };
}

/**
 * Creates an account through the API (not through the page, so the page stays signed out).
 * The Origin header is what a browser sends; the server's CSRF check expects it.
 */
export async function seedUser(
  request: APIRequestContext,
  baseURL: string | undefined,
  label: string,
): Promise<Credentials> {
  const api = apiWith(request, baseURL);
  const credentials = newCredentials(label);
  await callExpecting(api, 200, endpoints.auth.signUpWithEmail, { body: credentials });
  return credentials;
}

/** Fills the sign-in screen's Email tab and submits it (the page must be on /login). */
export async function signInWithPassword(page: Page, { email, password }: Credentials) {
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The part of an address before the at-sign: what the dashboard greets a nameless user with. */
export function localPart(email: string): string {
  return email.slice(0, email.indexOf('@'));
}
