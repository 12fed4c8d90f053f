import { expect } from 'vitest';
import { ORIGIN } from './api';
import { codeFrom, type TestSmtp } from './smtp';
import { cookiesFrom, type TestApp } from './test-app';

/**
 * Signs in by emailed code, which proves the address (email_verified), and returns the cookie
 * header. The app must send mail through `smtp`.
 */
export async function signInByCode(t: TestApp, smtp: TestSmtp, email: string): Promise<string> {
  const before = smtp.messages.filter((m) => m.to.includes(email)).length;
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/auth/magic-code/send',
    payload: { email },
    headers: { origin: ORIGIN },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const code = codeFrom(await smtp.waitFor(email, before + 1));
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/auth/magic-code/verify',
    payload: { email, code },
    headers: { origin: ORIGIN },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return cookiesFrom(verified.headers['set-cookie']);
}
