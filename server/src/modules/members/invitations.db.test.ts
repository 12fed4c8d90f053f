import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  endpoints,
  EMAILS_PER_HOUR,
  invitationSchema,
  invitationSubject,
  invitationViewSchema,
  MAX_PENDING_INVITATIONS,
  MEMBER_MESSAGES,
  type ApiClient,
} from '@takes/contract';
import { client, ORIGIN } from '../../../test/api';
import {
  buildMember,
  buildProject,
  buildRepo,
  buildUser,
  type BuiltUser,
} from '../../../test/factories';
import { mailAppSuite } from '../../../test/mail-app';
import { createTestApp, TestClock, type TestApp } from '../../../test/test-app';
import type { MailMessage, Mailer } from '../../mail/mailer';

const api = endpoints.members;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Keeps every email the app sends, for the test to read. */
class CapturingMailer implements Mailer {
  readonly kind = 'log' as const;
  readonly sent: MailMessage[] = [];
  failing = false;
  send(message: MailMessage): Promise<void> {
    if (this.failing) return Promise.reject(new Error('SMTP is down'));
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {}
  /** The newest email to this address. */
  last(to: string): MailMessage {
    const mine = this.sent.filter((m) => m.to === to);
    const message = mine[mine.length - 1];
    if (!message) throw new Error(`no email to ${to}`);
    return message;
  }
}

/** The token of the invitation link in an email's text. */
function tokenFrom(text: string): string {
  const match = /\/invite\/([\w-]+)/.exec(text);
  if (!match?.[1]) throw new Error('no invitation link in the email');
  return match[1];
}

/** What a refused call answered: its status and the server's message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; error?: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { status: number; serverMessage?: string };
    return { status: e.status, error: e.serverMessage };
  }
  throw new Error('the call was not refused');
}

describe('invitations', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailer: CapturingMailer;
  let owner: BuiltUser;
  let projectId: string;
  let projectName: string;
  let as: (user?: { cookie: string }) => ApiClient;
  let counter = 0;
  const email = () => `guest${Date.now()}${++counter}@example.com`;

  const invite = (
    who: { cookie: string },
    address: string,
    role?: 'viewer' | 'commenter' | 'editor',
    target = projectId,
  ) =>
    as(who).call(api.inviteToProject, {
      params: { projectId: target },
      body: role ? { email: address, role } : { email: address },
    });
  const view = (token: string) => as().call(api.viewInvitation, { body: { token } });
  const accept = (who: { cookie: string }, token: string) =>
    as(who).call(api.acceptInvitation, { body: { token } });

  beforeAll(async () => {
    clock = new TestClock();
    mailer = new CapturingMailer();
    t = await createTestApp({ clock, mailer });
    as = (user) => client(t, user?.cookie);
    owner = await buildUser(t.deps.database.db, { name: 'Ana Owner' });
    await t.deps.database.db
      .insertInto('profiles')
      .values({
        user_id: owner.id,
        display_name: 'Ana',
        avatar_key: null,
        updated_at: new Date().toISOString(),
      })
      .execute();
    const { project } = await buildProject(t.deps.database.db, owner.id, { name: 'Night Drive' });
    projectId = project.id;
    projectName = project.name;
  });
  afterAll(() => t.close());

  it('emails a link and keeps only the hash of its token', async () => {
    const address = email();
    const sentBefore = mailer.sent.length;
    const invitation = await invite(owner, `  ${address.toUpperCase()} `, 'editor');
    expect(invitationSchema.parse(invitation)).toEqual(invitation);
    expect(invitation).toMatchObject({ email: address, role: 'editor' });
    expect(new Date(invitation.expires_at).getTime()).toBe(
      new Date(invitation.sent_at).getTime() + 7 * DAY_MS,
    );

    expect(mailer.sent).toHaveLength(sentBefore + 1);
    const mail = mailer.last(address);
    expect(mail.subject).toBe(invitationSubject('Ana', projectName));
    expect(mail.subject).toBe('Ana invited you to Night Drive on Takes');
    const token = tokenFrom(mail.text);
    expect(token.length).toBeGreaterThanOrEqual(43); // 32 bytes, base64url
    expect(mail.text).toContain(`${t.deps.config.publicUrl}/invite/${token}`);
    expect(t.deps.config.publicUrl).toBe('http://localhost:8080');
    expect(mail.text).toContain(
      'Ana invited you to the project "Night Drive" on Takes as an Editor.',
    );
    expect(mail.text).toContain('expires in 7 days');

    const rows = await t.deps.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', invitation.id)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ project_id: projectId, repo_id: null, inviter_id: owner.id });

    // The role defaults to Commenter.
    const second = await invite(owner, email());
    expect(second.role).toBe('commenter');
  });

  it('shows the invitation to whoever holds the link', async () => {
    const address = email();
    await invite(owner, address, 'viewer');
    const shown = await view(tokenFrom(mailer.last(address).text));
    expect(invitationViewSchema.parse(shown)).toEqual(shown);
    expect(shown).toMatchObject({
      kind: 'project',
      target_id: projectId,
      target_name: 'Night Drive',
      inviter_name: 'Ana',
      email: address,
      role: 'viewer',
    });
  });

  it('accepts as the right account once: a member with the role, on the project', async () => {
    const address = email();
    await invite(owner, address, 'editor');
    const token = tokenFrom(mailer.last(address).text);
    const guest = await buildUser(t.deps.database.db, { email: address.toUpperCase() });

    // Before accepting, the guest is not a member: 404.
    expect(
      await refusal(as(guest).call(api.listProjectMembers, { params: { projectId } })),
    ).toEqual({ status: 404, error: 'Project not found' });

    expect(await accept(guest, token)).toEqual({
      kind: 'project',
      target_id: projectId,
      role: 'editor',
    });
    expect(await t.services.access.projectRole(guest.id, projectId)).toBe('editor');
    const list = await as(guest).call(api.listProjectMembers, { params: { projectId } });
    expect(list.role).toBe('editor');
    expect(list.members.map((m) => [m.user_id, m.role])).toEqual([
      [owner.id, 'owner'],
      [guest.id, 'editor'],
    ]);

    const row = await t.deps.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('email', '=', address)
      .executeTakeFirstOrThrow();
    expect(row.accepted_by).toBe(guest.id);
    expect(row.accepted_at).not.toBeNull();

    // Single use: the same link again (by anyone) is no longer valid.
    expect(await refusal(accept(guest, token))).toEqual({
      status: 410,
      error: MEMBER_MESSAGES.invitationInvalid,
    });
    expect(await refusal(view(token))).toEqual({
      status: 410,
      error: 'This invitation is no longer valid.',
    });
    // An accepted invitation is no longer pending.
    const owners = await as(owner).call(api.listProjectMembers, { params: { projectId } });
    expect(owners.invitations.map((i) => i.email)).not.toContain(address);
  });

  it('refuses another account with the address the invitation was sent to', async () => {
    const address = email();
    await invite(owner, address);
    const token = tokenFrom(mailer.last(address).text);
    const someoneElse = await buildUser(t.deps.database.db);
    expect(await refusal(accept(someoneElse, token))).toEqual({
      status: 403,
      error: `This invitation was sent to ${address}.`,
    });
    expect(await t.services.access.projectRole(someoneElse.id, projectId)).toBeNull();
    // The link still works for the right person.
    const guest = await buildUser(t.deps.database.db, { email: address });
    expect((await accept(guest, token)).role).toBe('commenter');
  });

  it('resend replaces the token: the old link stops working, the new one works', async () => {
    const address = email();
    const first = await invite(owner, address, 'viewer');
    const oldToken = tokenFrom(mailer.last(address).text);

    clock.advance(2 * 60 * 60 * 1000);
    const resent = await as(owner).call(api.resendInvitation, {
      params: { invitationId: first.id },
    });
    expect(resent.id).toBe(first.id);
    expect(resent.sent_at > first.sent_at).toBe(true);
    expect(new Date(resent.expires_at).getTime()).toBe(
      new Date(resent.sent_at).getTime() + 7 * DAY_MS,
    );
    const newToken = tokenFrom(mailer.last(address).text);
    expect(newToken).not.toBe(oldToken);
    expect(mailer.last(address).subject).toBe('Ana invited you to Night Drive on Takes');

    expect(await refusal(view(oldToken))).toEqual({
      status: 410,
      error: MEMBER_MESSAGES.invitationInvalid,
    });
    expect((await view(newToken)).email).toBe(address);
    const guest = await buildUser(t.deps.database.db, { email: address });
    expect(await refusal(accept(guest, oldToken))).toMatchObject({ status: 410 });
    expect((await accept(guest, newToken)).role).toBe('viewer');
  });

  it('expires 7 days after sending', async () => {
    const address = email();
    await invite(owner, address);
    const token = tokenFrom(mailer.last(address).text);
    const guest = await buildUser(t.deps.database.db, { email: address });
    clock.advance(7 * DAY_MS - 60_000);
    expect((await view(token)).email).toBe(address);
    clock.advance(2 * 60_000);
    expect(await refusal(view(token))).toEqual({
      status: 410,
      error: MEMBER_MESSAGES.invitationInvalid,
    });
    expect(await refusal(accept(guest, token))).toEqual({
      status: 410,
      error: MEMBER_MESSAGES.invitationInvalid,
    });
    // No longer pending: the owner may invite the address again.
    const again = await invite(owner, address);
    expect(again.email).toBe(address);
  });

  it('revoke: the link answers that it is no longer valid', async () => {
    const address = email();
    const invitation = await invite(owner, address);
    const token = tokenFrom(mailer.last(address).text);
    const listed = await as(owner).call(api.listProjectMembers, { params: { projectId } });
    expect(listed.invitations.map((i) => i.id)).toContain(invitation.id);

    await as(owner).call(api.revokeInvitation, { params: { invitationId: invitation.id } });
    expect(await refusal(view(token))).toEqual({
      status: 410,
      error: MEMBER_MESSAGES.invitationInvalid,
    });
    const guest = await buildUser(t.deps.database.db, { email: address });
    expect(await refusal(accept(guest, token))).toMatchObject({ status: 410 });
    const after = await as(owner).call(api.listProjectMembers, { params: { projectId } });
    expect(after.invitations.map((i) => i.id)).not.toContain(invitation.id);
    // A revoked invitation cannot be resent.
    expect(
      await refusal(
        as(owner).call(api.resendInvitation, { params: { invitationId: invitation.id } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.invitationNotFound });
  });

  it('already a member, the owner, or already invited: 409 and nothing changes', async () => {
    const member = await buildMember(t.deps.database.db, { projectId }, 'viewer', {
      email: email(),
    });
    const invited = email();
    const first = await invite(owner, invited);
    const rowsBefore = await t.deps.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('project_id', '=', projectId)
      .execute();
    const mailsBefore = mailer.sent.length;

    expect(await refusal(invite(owner, member.email.toUpperCase(), 'editor'))).toEqual({
      status: 409,
      error: `${member.email} is already a member.`,
    });
    expect(await refusal(invite(owner, owner.email))).toEqual({
      status: 409,
      error: MEMBER_MESSAGES.alreadyMember(owner.email),
    });
    expect(await refusal(invite(owner, invited, 'editor'))).toEqual({
      status: 409,
      error: `${invited} has already been invited.`,
    });

    const rowsAfter = await t.deps.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('project_id', '=', projectId)
      .execute();
    expect(rowsAfter).toEqual(rowsBefore);
    expect(mailer.sent.length).toBe(mailsBefore);
    expect(await t.services.access.projectRole(member.id, projectId)).toBe('viewer');
    expect(rowsAfter.find((r) => r.id === first.id)?.role).toBe('commenter');
  });

  it('checks the address', async () => {
    expect(await refusal(invite(owner, ''))).toEqual({
      status: 400,
      error: MEMBER_MESSAGES.emailRequired,
    });
    expect(await refusal(invite(owner, 'not-an-address'))).toEqual({
      status: 400,
      error: MEMBER_MESSAGES.emailInvalid,
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/invitations`,
      payload: { email: email(), role: 'owner' },
      headers: { cookie: owner.cookie, origin: ORIGIN },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('only the owner invites, resends and revokes; others get 403, non-members 404', async () => {
    const invitation = await invite(owner, email());
    for (const role of ['viewer', 'commenter', 'editor'] as const) {
      const member = await buildMember(t.deps.database.db, { projectId }, role);
      expect(await refusal(invite(member, email()))).toEqual({
        status: 403,
        error: 'You need Owner access to do this.',
      });
      expect(
        await refusal(
          as(member).call(api.resendInvitation, { params: { invitationId: invitation.id } }),
        ),
      ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });
      expect(
        await refusal(
          as(member).call(api.revokeInvitation, { params: { invitationId: invitation.id } }),
        ),
      ).toEqual({ status: 403, error: MEMBER_MESSAGES.needRole('owner') });
      // Members see the list, but not the pending invitations.
      const list = await as(member).call(api.listProjectMembers, { params: { projectId } });
      expect(list.role).toBe(role);
      expect(list.invitations).toEqual([]);
    }
    const stranger = await buildUser(t.deps.database.db);
    expect(await refusal(invite(stranger, email()))).toEqual({
      status: 404,
      error: 'Project not found',
    });
    expect(
      await refusal(
        as(stranger).call(api.resendInvitation, { params: { invitationId: invitation.id } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.invitationNotFound });
    expect(
      await refusal(
        as(stranger).call(api.revokeInvitation, { params: { invitationId: invitation.id } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.invitationNotFound });
    expect(
      await refusal(
        as(owner).call(api.revokeInvitation, { params: { invitationId: randomUUID() } }),
      ),
    ).toEqual({ status: 404, error: MEMBER_MESSAGES.invitationNotFound });
    expect(await refusal(invite(owner, email(), 'viewer', randomUUID()))).toEqual({
      status: 404,
      error: 'Project not found',
    });
    expect(await refusal(invite({ cookie: '' }, email()))).toMatchObject({ status: 401 });
    expect(await refusal(accept({ cookie: '' }, 'x'.repeat(43)))).toMatchObject({ status: 401 });
  });

  it(`at most ${MAX_PENDING_INVITATIONS} pending invitations per project`, async () => {
    const { project } = await buildProject(t.deps.database.db, owner.id);
    const now = clock.now();
    const rows = Array.from({ length: MAX_PENDING_INVITATIONS }, (_, i) => ({
      id: randomUUID(),
      project_id: project.id,
      repo_id: null,
      email: `pending${i}-${randomUUID()}@example.com`,
      role: 'viewer' as const,
      token_hash: createHash('sha256').update(randomUUID()).digest('hex'),
      inviter_id: owner.id,
      created_at: now.toISOString(),
      sent_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 7 * DAY_MS).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    }));
    await t.deps.database.db.insertInto('invitations').values(rows).execute();
    const mailsBefore = mailer.sent.length;
    expect(await refusal(invite(owner, email(), 'viewer', project.id))).toEqual({
      status: 429,
      error: 'At most 50 invitations can be pending at once.',
    });
    expect(mailer.sent.length).toBe(mailsBefore);
    // Revoking one makes room.
    const first = rows[0];
    if (!first) throw new Error('no rows');
    await as(owner).call(api.revokeInvitation, { params: { invitationId: first.id } });
    expect((await invite(owner, email(), 'viewer', project.id)).role).toBe('viewer');
  });

  it('an email that cannot be sent leaves no invitation behind', async () => {
    const address = email();
    mailer.failing = true;
    try {
      expect(await refusal(invite(owner, address))).toMatchObject({ status: 500 });
    } finally {
      mailer.failing = false;
    }
    const rows = await t.deps.database.db
      .selectFrom('invitations')
      .select('id')
      .where('email', '=', address)
      .execute();
    expect(rows).toEqual([]);
    expect((await invite(owner, address)).email).toBe(address);
  });

  it('removing a member revokes the invitations pending for their address', async () => {
    const member = await buildMember(t.deps.database.db, { projectId }, 'commenter', {
      email: email(),
    });
    // An invitation sent before they joined another way (written directly).
    const now = clock.now();
    const id = randomUUID();
    const token = randomUUID();
    await t.deps.database.db
      .insertInto('invitations')
      .values({
        id,
        project_id: projectId,
        repo_id: null,
        email: member.email,
        role: 'editor',
        token_hash: createHash('sha256').update(token).digest('hex'),
        inviter_id: owner.id,
        created_at: now.toISOString(),
        sent_at: now.toISOString(),
        expires_at: new Date(now.getTime() + DAY_MS).toISOString(),
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      })
      .execute();
    await as(owner).call(api.removeProjectMember, { params: { projectId, userId: member.id } });
    expect(await refusal(view(token))).toMatchObject({ status: 410 });
    expect(await refusal(accept(member, token))).toMatchObject({ status: 410 });
    expect(await t.services.access.projectRole(member.id, projectId)).toBeNull();
  });
});

describe('invitation limits', () => {
  let t: TestApp;
  let clock: TestClock;
  let mailer: CapturingMailer;
  beforeAll(async () => {
    clock = new TestClock();
    mailer = new CapturingMailer();
    t = await createTestApp({ clock, mailer });
  });
  afterAll(() => t.close());

  it(`the ${EMAILS_PER_HOUR + 1}st invitation in an hour (resends count) is 429 with Retry-After`, async () => {
    const owner = await buildUser(t.deps.database.db);
    const { project } = await buildProject(t.deps.database.db, owner.id);
    const { project: other } = await buildProject(t.deps.database.db, owner.id);
    const as = client(t, owner.cookie);
    let first: { id: string } | undefined;
    for (let i = 0; i < EMAILS_PER_HOUR - 1; i++) {
      const invitation = await as.call(api.inviteToProject, {
        params: { projectId: i % 2 ? project.id : other.id },
        body: { email: `hourly${i}@example.com` },
      });
      first ??= invitation;
    }
    if (!first) throw new Error('no invitation');
    // The 20th email is a resend.
    await as.call(api.resendInvitation, { params: { invitationId: first.id } });
    expect(mailer.sent).toHaveLength(EMAILS_PER_HOUR);

    clock.advance(10 * 60 * 1000);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.id}/invitations`,
      payload: { email: 'one-too-many@example.com' },
      headers: { cookie: owner.cookie, origin: ORIGIN },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: MEMBER_MESSAGES.tooManyInvitations,
      code: 'rate_limited',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(49 * 60);
    expect(retryAfter).toBeLessThanOrEqual(50 * 60);
    expect(
      await refusal(as.call(api.resendInvitation, { params: { invitationId: first.id } })),
    ).toEqual({ status: 429, error: MEMBER_MESSAGES.tooManyInvitations });
    expect(mailer.sent).toHaveLength(EMAILS_PER_HOUR);
    const pending = await t.deps.database.db
      .selectFrom('invitations')
      .select('id')
      .where('email', '=', 'one-too-many@example.com')
      .execute();
    expect(pending).toEqual([]);

    // The limit is per inviter: another owner still invites.
    const otherOwner = await buildUser(t.deps.database.db);
    const { project: theirs } = await buildProject(t.deps.database.db, otherOwner.id);
    await client(t, otherOwner.cookie).call(api.inviteToProject, {
      params: { projectId: theirs.id },
      body: { email: 'one-too-many@example.com' },
    });

    // An hour after the window opened, the inviter may send again.
    clock.advance(51 * 60 * 1000);
    const again = await as.call(api.inviteToProject, {
      params: { projectId: project.id },
      body: { email: 'one-too-many@example.com' },
    });
    expect(again.email).toBe('one-too-many@example.com');
  });

  it('many wrong tokens from one address are 429; other addresses are not affected', async () => {
    const viewFrom = (ip: string, token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/invitations/view',
        payload: { token },
        headers: { origin: ORIGIN },
        remoteAddress: ip,
      });
    // Twenty wrong tokens are typos; the 21st is a search.
    for (let i = 0; i < 20; i++) {
      const miss = await viewFrom('203.0.113.7', `wrong-token-${i}-${randomUUID()}`);
      expect(miss.statusCode).toBe(410);
      expect(miss.json()).toEqual({ error: MEMBER_MESSAGES.invitationInvalid, code: 'gone' });
    }
    const limited = await viewFrom('203.0.113.7', `wrong-token-${randomUUID()}`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: AUTH_MESSAGES.tooManyRequests, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await viewFrom('203.0.113.8', `wrong-token-${randomUUID()}`)).statusCode).toBe(410);
    // Ten minutes later the address may try again.
    clock.advance(11 * 60 * 1000);
    expect((await viewFrom('203.0.113.7', `wrong-token-${randomUUID()}`)).statusCode).toBe(410);
  });
});

describe('repository invitations', () => {
  let t: TestApp;
  let mailer: CapturingMailer;
  beforeAll(async () => {
    mailer = new CapturingMailer();
    t = await createTestApp({ mailer });
  });
  afterAll(() => t.close());

  it('invite, view and accept into a repository', async () => {
    const owner = await buildUser(t.deps.database.db, { name: 'Rui' });
    const repo = await buildRepo(t.deps.database.db, owner.id, { name: 'Album Sessions' });
    const as = client(t, owner.cookie);
    const address = 'engineer@example.com';
    const invitation = await as.call(api.inviteToRepo, {
      params: { id: repo.id },
      body: { email: address, role: 'editor' },
    });
    expect(invitation.role).toBe('editor');
    const mail = mailer.last(address);
    expect(mail.subject).toBe('Rui invited you to Album Sessions on Takes');
    expect(mail.text).toContain('the repository "Album Sessions"');
    const token = tokenFrom(mail.text);

    const shown = await client(t).call(api.viewInvitation, { body: { token } });
    expect(shown).toMatchObject({
      kind: 'repository',
      target_id: repo.id,
      target_name: 'Album Sessions',
      inviter_name: 'Rui',
      role: 'editor',
    });
    const engineer = await buildUser(t.deps.database.db, { email: address });
    expect(
      await client(t, engineer.cookie).call(api.acceptInvitation, { body: { token } }),
    ).toEqual({ kind: 'repository', target_id: repo.id, role: 'editor' });
    expect(await t.services.access.repoRole(engineer.id, repo.id)).toBe('editor');
    const list = await client(t, engineer.cookie).call(api.listRepoMembers, {
      params: { id: repo.id },
    });
    expect(list.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [address, 'editor'],
    ]);
    expect(
      await refusal(
        as.call(api.inviteToRepo, { params: { id: repo.id }, body: { email: address } }),
      ),
    ).toEqual({ status: 409, error: MEMBER_MESSAGES.alreadyMember(address) });
    const stranger = await buildUser(t.deps.database.db);
    expect(
      await refusal(
        client(t, stranger.cookie).call(api.inviteToRepo, {
          params: { id: repo.id },
          body: { email: 'x@example.com' },
        }),
      ),
    ).toEqual({ status: 404, error: 'Repository not found' });
  });

  it('the owner accepting an invitation to their own repository stays the owner', async () => {
    const owner = await buildUser(t.deps.database.db);
    const repo = await buildRepo(t.deps.database.db, owner.id);
    const editor = await buildMember(t.deps.database.db, { repoId: repo.id }, 'editor', {
      email: 'future-owner@example.com',
    });
    // Written directly: an invitation can no longer be made for a member's address.
    const token = 'a'.repeat(43);
    const now = new Date();
    await t.deps.database.db
      .insertInto('invitations')
      .values({
        id: randomUUID(),
        project_id: null,
        repo_id: repo.id,
        email: editor.email,
        role: 'viewer',
        token_hash: createHash('sha256').update(token).digest('hex'),
        inviter_id: owner.id,
        created_at: now.toISOString(),
        sent_at: now.toISOString(),
        expires_at: new Date(now.getTime() + DAY_MS).toISOString(),
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      })
      .execute();
    await client(t, owner.cookie).call(api.transferRepo, {
      params: { id: repo.id },
      body: { user_id: editor.id },
    });
    expect(await client(t, editor.cookie).call(api.acceptInvitation, { body: { token } })).toEqual({
      kind: 'repository',
      target_id: repo.id,
      role: 'owner',
    });
    expect(await t.services.access.repoRole(editor.id, repo.id)).toBe('owner');
    const members = await t.deps.database.db
      .selectFrom('repo_members')
      .select(['user_id', 'role'])
      .where('repo_id', '=', repo.id)
      .execute();
    expect(members).toEqual([{ user_id: owner.id, role: 'editor' }]);
  });
});

describe('the invitation email over real SMTP', () => {
  const suite = mailAppSuite('invite-smtp');

  it('is received with its subject, and its link opens and accepts the invitation', async () => {
    const { t } = await suite.start();
    const owner = await buildUser(t.deps.database.db, { name: 'Mara' });
    const { project } = await buildProject(t.deps.database.db, owner.id, { name: 'Tape Loops' });
    const address = suite.uniqueEmail();
    await client(t, owner.cookie).call(api.inviteToProject, {
      params: { projectId: project.id },
      body: { email: address, role: 'commenter' },
    });

    const mail = await suite.smtp.waitFor(address);
    const headers = mail.text.replace(/\r?\n[ \t]+/g, ' ');
    expect(headers).toContain('Subject: Mara invited you to Tape Loops on Takes');
    const link = /(http:\/\/localhost:8080\/invite\/[\w-]+)/.exec(mail.text)?.[1];
    if (!link) throw new Error('no link in the received email');
    const token = new URL(link).pathname.split('/').pop() ?? '';
    expect(mail.text).toContain('as a Commenter');

    const shown = await client(t).call(api.viewInvitation, { body: { token } });
    expect(shown).toMatchObject({ target_id: project.id, inviter_name: 'Mara', email: address });
    const guest = await buildUser(t.deps.database.db, { email: address });
    expect(await client(t, guest.cookie).call(api.acceptInvitation, { body: { token } })).toEqual({
      kind: 'project',
      target_id: project.id,
      role: 'commenter',
    });
    expect(await t.services.access.projectRole(guest.id, project.id)).toBe('commenter');
  });
});
