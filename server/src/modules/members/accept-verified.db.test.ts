import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, EMAIL_UNVERIFIED_CODE, MEMBER_MESSAGES } from '@takes/contract';
import { ORIGIN } from '../../../test/api';
import { buildProject, buildUser } from '../../../test/factories';
import { authRequests, mailAppSuite } from '../../../test/mail-app';
import { codeFrom, type ReceivedMail } from '../../../test/smtp';
import { cookiesFrom, type TestApp } from '../../../test/test-app';

const { smtp, uniqueEmail, start } = mailAppSuite('invitee');

/** The 6-digit code of an address-confirmation email. */
function confirmationCode(mail: ReceivedMail): string {
  const match = /Your confirmation code: (\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error('no confirmation code in the email');
  return match[1];
}

/** The token of the invitation link in an email. */
function invitationToken(mail: ReceivedMail): string {
  const match = /\/invite\/([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no invitation link in the email');
  return match[1];
}

/**
 * Accepting an invitation needs an account that proved its address: one made with a password
 * and never confirmed gets a 6-digit code first, so a forwarded link is not enough to take the
 * seat. Accounts made by emailed code (or a provider) are proven already.
 */
describe('accepting an invitation needs a verified address', () => {
  let t: TestApp;
  const { post, signUp } = authRequests(() => t, uniqueEmail);
  const as = (cookie: string) => ({
    post: (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { cookie, origin: ORIGIN } }),
  });

  /** Olga invites `address` into her project as an Editor; the emailed token. */
  async function invite(address: string) {
    const olga = await buildUser(t.deps.database.db, { name: 'Olga' });
    const { project } = await buildProject(t.deps.database.db, olga.id, { name: 'Night Drive' });
    const invited = await as(olga.cookie).post(`/api/projects/${project.id}/invitations`, {
      email: address,
      role: 'editor',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    return { projectId: project.id, token: invitationToken(await smtp.waitFor(address)) };
  }

  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  const roleOf = (userId: string, projectId: string) =>
    t.services.access.projectRole(userId, projectId);

  it('mails a code to a password account that never proved its address; the right code lets it accept', async () => {
    ({ t } = await start());
    const address = uniqueEmail();
    const { projectId, token } = await invite(address);
    const person = await signUp(address);
    const userId = person.response.json<{ user: { id: string } }>().user.id;

    const refused = await as(person.cookie).post('/api/invitations/accept', { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: MEMBER_MESSAGES.confirmEmailToAccept(address),
      code: 'email_unverified',
      details: { code: EMAIL_UNVERIFIED_CODE, email: address },
    });
    expect(refused.json<{ error: string }>().error).toBe(
      `Confirm your email address to accept this invitation. We sent a 6-digit code to ${address}.`,
    );
    const mail = await smtp.waitFor(address, 2);
    expect(mail.text).toContain('Subject: Confirm your email address for Takes');
    const code = confirmationCode(mail);
    expect(await roleOf(userId, projectId)).toBeNull();

    // Asking again within the minute sends nothing more (the code mailed is still good).
    const again = await as(person.cookie).post('/api/invitations/accept', { token });
    expect(again.statusCode).toBe(403);
    expect(mailsTo(address)).toHaveLength(2);

    const wrong = await as(person.cookie).post('/api/auth/verify-email', {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: AUTH_MESSAGES.otpInvalid, code: 'invalid' });
    expect((await as(person.cookie).post('/api/invitations/accept', { token })).statusCode).toBe(
      403,
    );
    const badShape = await as(person.cookie).post('/api/auth/verify-email', { code: '12345' });
    expect(badShape.json<{ error: string }>().error).toBe(AUTH_MESSAGES.otpDigits);

    const right = await as(person.cookie).post('/api/auth/verify-email', { code });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toEqual({ ok: true });
    const row = await t.deps.database.db
      .selectFrom('users')
      .select('email_verified')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.email_verified)).toBe(true);
    // Used once.
    expect((await as(person.cookie).post('/api/auth/verify-email', { code })).statusCode).toBe(400);

    const accepted = await as(person.cookie).post('/api/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ kind: 'project', target_id: projectId, role: 'editor' });
    expect(await roleOf(userId, projectId)).toBe('editor');
    // The password still signs in: confirming an address takes nothing away.
    const signIn = await post('/api/auth/sign-in/email', {
      email: address,
      password: person.password,
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });

  it('lets a verified account accept at once, with no code', async () => {
    ({ t } = await start());
    const address = uniqueEmail();
    const { projectId, token } = await invite(address);
    const verified = await buildUser(t.deps.database.db, { email: address });
    const accepted = await as(verified.cookie).post('/api/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await roleOf(verified.id, projectId)).toBe('editor');
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('counts an account made by emailed code as verified', async () => {
    ({ t } = await start());
    const address = uniqueEmail();
    const { projectId, token } = await invite(address);
    expect((await post('/api/auth/magic-code/send', { email: address })).statusCode).toBe(200);
    const signedIn = await post('/api/auth/magic-code/verify', {
      email: address,
      code: codeFrom(await smtp.waitFor(address, 2)),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = cookiesFrom(signedIn.headers['set-cookie']);
    const accepted = await as(cookie).post('/api/invitations/accept', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const userId = signedIn.json<{ user: { id: string } }>().user.id;
    expect(await roleOf(userId, projectId)).toBe('editor');
  });

  it('asks nothing of another account (it is refused as the wrong account) and needs a session to confirm', async () => {
    ({ t } = await start());
    const address = uniqueEmail();
    const { token } = await invite(address);
    const other = await signUp();
    const refused = await as(other.cookie).post('/api/invitations/accept', { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: MEMBER_MESSAGES.wrongAccount(address),
      code: 'forbidden',
    });
    expect(mailsTo(other.email)).toHaveLength(0);
    const anonymous = await post('/api/auth/verify-email', { code: '123456' });
    expect(anonymous.statusCode).toBe(401);
  });
});
